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
  LibraryStore,
  RollbackOptions,
  SetVersionStateOptions,
  StatsDelta,
} from "../library-store.js";
import type {
  OutcomeCounts,
  OutcomeFilter,
  OutcomeReport,
  OutcomeStore,
  ReportOptions,
  ServedSelection,
  StoredOutcome,
} from "../outcome-store.js";
import { sqlitePath } from "../parse-store-url.js";
import type { RunFilter, RunPatch, RunStore } from "../run-store.js";
import type { Store } from "../store.js";
import type { TrajectoryFilter, TrajectoryStore, UsageRecord, UsageReport } from "../trajectory-store.js";
import { migrations } from "./migrations.js";
import { SqliteConnection, type SqliteConnectionOptions } from "./sqlite-connection.js";
import { SqliteLibraryStore } from "./sqlite-library-store.js";
import { SqliteOutcomeStore } from "./sqlite-outcome-store.js";
import { SqliteRunStore } from "./sqlite-run-store.js";
import { SqliteTrajectoryStore } from "./sqlite-trajectory-store.js";

export type SqliteStoreOptions = SqliteConnectionOptions;

/**
 * The default backend: one SQLite file per workspace (WAL, so readers never block the writer), better-sqlite3.
 * It is the four aggregate stores over ONE connection, so they share one file, one write lock and one
 * prepared-statement cache; `libraries`, `runs`, `trajectories` and `outcomes` are those narrow views, and the store itself
 * answers every method of `Store` by handing it to the aggregate it belongs to.
 */
export class SqliteStore implements Store {
  readonly path: string;
  readonly libraries: LibraryStore;
  readonly runs: RunStore;
  readonly trajectories: TrajectoryStore;
  readonly outcomes: OutcomeStore;
  private readonly connection: SqliteConnection;

  /** Opens (creating if needed) and migrates the SQLite store at a `sqlite://` URL, a file path or ":memory:". */
  static async fromUrl(
    urlOrPath: string,
    options: Omit<SqliteStoreOptions, "path"> = {},
  ): Promise<SqliteStore> {
    // Only SQLite locations exist today; another backend gets its own class and its own case in createStore.
    return SqliteStore.open({ ...options, path: sqlitePath(urlOrPath) });
  }

  /** Opens (creating if needed) and migrates the SQLite store at a path; closes it again if migrating fails. */
  static async open(options: SqliteStoreOptions): Promise<SqliteStore> {
    const store = new SqliteStore(options);
    try {
      await store.setup();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  constructor(options: SqliteStoreOptions) {
    this.path = options.path;
    this.connection = new SqliteConnection(options);
    const libraries = new SqliteLibraryStore(this.connection);
    this.libraries = libraries;
    this.runs = new SqliteRunStore(this.connection);
    this.trajectories = new SqliteTrajectoryStore(this.connection);
    this.outcomes = new SqliteOutcomeStore(this.connection, libraries);
  }

  async setup(): Promise<void> {
    const { db } = this.connection;
    this.connection.write(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
        version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const current =
        (db.prepare("SELECT max(version) AS v FROM schema_version").get() as { v: number | null }).v ?? 0;
      const latest = migrations.at(-1)!.version;
      if (current > latest) {
        throw new TfgrpoError(
          "invalid_config",
          `${this.path}: database schema version ${current} is newer than this tfgrpo understands (${latest}); upgrade tfgrpo`,
          { details: { path: this.path, schemaVersion: current, supported: latest } },
        );
      }
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        db.exec(migration.sql);
        db.prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)").run(
          migration.version,
          migration.description,
          this.connection.now().toISOString(),
        );
      }
    });
  }

  async close(): Promise<void> {
    this.connection.close();
  }

  /** The schema version and SQLite's integrity check, for tests and `doctor`-style commands. */
  inspect(): { schemaVersion: number; integrity: string; journalMode: string } {
    const { db } = this.connection;
    const schemaVersion = (db.prepare("SELECT max(version) AS v FROM schema_version").get() as { v: number })
      .v;
    const integrity = db.pragma("integrity_check", { simple: true }) as string;
    const journalMode = db.pragma("journal_mode", { simple: true }) as string;
    return { schemaVersion, integrity, journalMode };
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
