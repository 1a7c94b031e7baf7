import {
  type GateDecision,
  type LibrarySnapshot,
  type LibraryVersion,
  type Operation,
  type Run,
  TfgrpoError,
  type Trajectory,
} from "@tfgrpo/protocol";
import type {
  ApplyOptions,
  ApplyResult,
  DomainSummary,
  ExportOptions,
  ImportOptions,
  ImportResult,
  LibraryDiff,
  RollbackOptions,
  SetVersionStateOptions,
  StatsDelta,
} from "../library-store.js";
import type {
  OutcomeCounts,
  OutcomeFilter,
  OutcomeReport,
  ReportOptions,
  ServedSelection,
  StoredOutcome,
} from "../outcome-store.js";
import type { RunFilter, RunPatch } from "../run-store.js";
import type { Store } from "../store.js";
import type { TrajectoryFilter, UsageRecord, UsageReport } from "../trajectory-store.js";
import { PostgresConnection, type PostgresConnectionOptions } from "./postgres-connection.js";
import { PostgresLibraryStore } from "./postgres-library-store.js";
import { postgresMigrations } from "./postgres-migrations.js";
import { PostgresOutcomeStore } from "./postgres-outcome-store.js";
import { PostgresRunStore } from "./postgres-run-store.js";
import { PostgresTrajectoryStore } from "./postgres-trajectory-store.js";

export type PostgresStoreOptions = PostgresConnectionOptions;

/** Any fixed number: the advisory lock that makes concurrent `setup()`s of one database take turns. */
const migrationLock = 7_470_112;

/** The tables of langgraph's PostgreSQL checkpointer, which may share the database. */
const checkpointTables = new Set([
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "checkpoint_migrations",
]);

/**
 * The server backend (`postgres://…`): what several runners, curators and machines share. The four aggregate stores
 * over one connection pool; every write is one transaction, writers of a library serialize on its domain row.
 */
export class PostgresStore implements Store {
  readonly url: string;
  readonly libraries: PostgresLibraryStore;
  readonly runs: PostgresRunStore;
  readonly trajectories: PostgresTrajectoryStore;
  readonly outcomes: PostgresOutcomeStore;
  readonly connection: PostgresConnection;

  /** Connects and migrates; the pool is closed again if that fails (a wrong password, a missing database, ...). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const store = new PostgresStore(options);
    try {
      await store.setup();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  constructor(options: PostgresStoreOptions) {
    this.connection = new PostgresConnection(options);
    this.url = this.connection.where;
    this.libraries = new PostgresLibraryStore(this.connection);
    this.runs = new PostgresRunStore(this.connection);
    this.trajectories = new PostgresTrajectoryStore(this.connection);
    this.outcomes = new PostgresOutcomeStore(this.connection, this.libraries);
  }

  async setup(): Promise<void> {
    await this.connection.transaction(async (sql) => {
      await sql.query("SELECT pg_advisory_xact_lock($1)", [migrationLock]);
      const tables = (
        await sql.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = current_schema() ORDER BY table_name`,
        )
      ).rows.map((r) => r.name);
      const foreign = tables.filter((name) => !checkpointTables.has(name));
      if (foreign.length > 0 && !tables.includes("schema_version")) {
        throw new TfgrpoError(
          "invalid_input",
          `not a tfgrpo database: ${this.url} has other tables (${foreign.slice(0, 5).join(", ")})`,
          { details: { url: this.url, tables: foreign } },
        );
      }
      await sql.query(`CREATE TABLE IF NOT EXISTS schema_version (
        version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const current =
        (await sql.query<{ v: number | null }>("SELECT max(version) AS v FROM schema_version")).rows[0]?.v ??
        0;
      const latest = postgresMigrations.at(-1)!.version;
      if (current > latest) {
        throw new TfgrpoError(
          "invalid_config",
          `${this.url}: database schema version ${current} is newer than this tfgrpo understands (${latest}); upgrade tfgrpo`,
          { details: { url: this.url, schemaVersion: current, supported: latest } },
        );
      }
      for (const migration of postgresMigrations) {
        if (migration.version <= current) continue;
        await sql.query(migration.sql);
        await sql.query("INSERT INTO schema_version (version, description, applied_at) VALUES ($1, $2, $3)", [
          migration.version,
          migration.description,
          this.connection.now().toISOString(),
        ]);
      }
    });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /**
   * Runs `fn` while holding the database-wide lock `name` (a transaction-level advisory lock): processes sharing the
   * database take turns, e.g. to set up what several of them may create at once.
   */
  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.connection.transaction(async (sql) => {
      await sql.query("SELECT pg_advisory_xact_lock(hashtext($1))", [name]);
      return fn();
    });
  }

  /** The schema version, for tests and `doctor`-style commands. */
  async inspect(): Promise<{ schemaVersion: number; serverVersion: string }> {
    const row = (
      await this.connection.query<{ v: number; server: string }>(
        "SELECT (SELECT max(version) FROM schema_version) AS v, current_setting('server_version') AS server",
      )
    ).rows[0]!;
    return { schemaVersion: row.v, serverVersion: row.server };
  }

  // --- libraries ------------------------------------------------------------------------------------------------

  applyOperations(domain: string, ops: readonly Operation[], options: ApplyOptions): Promise<ApplyResult> {
    return this.libraries.applyOperations(domain, ops, options);
  }

  setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
    options?: SetVersionStateOptions,
  ): Promise<LibraryVersion> {
    return this.libraries.setVersionState(domain, version, state, gate, options);
  }

  getHead(domain: string): Promise<LibrarySnapshot | null> {
    return this.libraries.getHead(domain);
  }

  getHeadVersion(domain: string): Promise<number | null> {
    return this.libraries.getHeadVersion(domain);
  }

  getVersion(domain: string, version: number): Promise<LibrarySnapshot | null> {
    return this.libraries.getVersion(domain, version);
  }

  getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null> {
    return this.libraries.getVersionInfo(domain, version);
  }

  listVersions(domain: string): Promise<LibraryVersion[]> {
    return this.libraries.listVersions(domain);
  }

  listDomains(): Promise<DomainSummary[]> {
    return this.libraries.listDomains();
  }

  diff(domain: string, from: number | null, to: number | null): Promise<LibraryDiff> {
    return this.libraries.diff(domain, from, to);
  }

  rollback(domain: string, toVersion: number, options?: RollbackOptions): Promise<LibraryVersion> {
    return this.libraries.rollback(domain, toVersion, options);
  }

  updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    return this.libraries.updateStats(domain, deltas);
  }

  exportLibrary(domain: string, options: ExportOptions): Promise<string> {
    return this.libraries.exportLibrary(domain, options);
  }

  importLibrary(domain: string, options: ImportOptions): Promise<ImportResult> {
    return this.libraries.importLibrary(domain, options);
  }

  // --- runs and run state ---------------------------------------------------------------------------------------

  createRun(run: Run): Promise<Run> {
    return this.runs.createRun(run);
  }

  updateRun(id: string, patch: RunPatch): Promise<Run> {
    return this.runs.updateRun(id, patch);
  }

  getRun(id: string): Promise<Run | null> {
    return this.runs.getRun(id);
  }

  listRuns(filter?: RunFilter): Promise<Run[]> {
    return this.runs.listRuns(filter);
  }

  putRunState(runId: string, key: string, value: unknown): Promise<void> {
    return this.runs.putRunState(runId, key, value);
  }

  getRunState(runId: string, key: string): Promise<unknown> {
    return this.runs.getRunState(runId, key);
  }

  deleteRunState(runId: string, key: string): Promise<boolean> {
    return this.runs.deleteRunState(runId, key);
  }

  listRunStateKeys(runId: string): Promise<string[]> {
    return this.runs.listRunStateKeys(runId);
  }

  // --- trajectories and usage -----------------------------------------------------------------------------------

  putTrajectories(trajectories: readonly Trajectory[]): Promise<number> {
    return this.trajectories.putTrajectories(trajectories);
  }

  getTrajectory(id: string): Promise<Trajectory | null> {
    return this.trajectories.getTrajectory(id);
  }

  listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]> {
    return this.trajectories.listTrajectories(filter);
  }

  countTrajectories(filter: TrajectoryFilter): Promise<number> {
    return this.trajectories.countTrajectories(filter);
  }

  recordUsage(runId: string, records: readonly UsageRecord[]): Promise<number> {
    return this.trajectories.recordUsage(runId, records);
  }

  getUsageTotals(runId: string): Promise<UsageReport> {
    return this.trajectories.getUsageTotals(runId);
  }

  // --- served selections and outcomes ---------------------------------------------------------------------------

  recordSelection(selection: ServedSelection): Promise<void> {
    return this.outcomes.recordSelection(selection);
  }

  reportOutcome(report: OutcomeReport, options?: ReportOptions): Promise<StoredOutcome> {
    return this.outcomes.reportOutcome(report, options);
  }

  getSelection(
    selectionId: string,
  ): Promise<{ selection: ServedSelection; outcome: StoredOutcome | null } | null> {
    return this.outcomes.getSelection(selectionId);
  }

  listOutcomes(filter: OutcomeFilter): Promise<StoredOutcome[]> {
    return this.outcomes.listOutcomes(filter);
  }

  markConsumed(
    domain: string,
    selectionIds: readonly string[],
    reflectionId: string,
    options?: ReportOptions,
  ): Promise<number> {
    return this.outcomes.markConsumed(domain, selectionIds, reflectionId, options);
  }

  countOutcomes(domain: string): Promise<OutcomeCounts> {
    return this.outcomes.countOutcomes(domain);
  }
}
