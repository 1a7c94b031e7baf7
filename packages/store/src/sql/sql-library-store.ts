import {
  type Experience,
  experienceIdSchema,
  type GateDecision,
  type LibrarySnapshot,
  type LibraryVersion,
  type Operation,
} from "@tfgrpo/protocol";
import { BaseLibraryStore, checkDomain } from "../base-library-store.js";
import type { ParsedLibraryFile } from "../formats/library-file.js";
import {
  immutableVersionError,
  parseGate,
  parseStatsDeltas,
  rollbackToUncommittedError,
  staleParentError,
} from "../library/library-write-rules.js";
import { planImport } from "../library/plan-import.js";
import { experienceOrdinal, planOperations } from "../library/plan-operations.js";
import { referencedIds, validateOperations } from "../library/validate-operations.js";
import type {
  ApplyOptions,
  ApplyResult,
  DomainSummary,
  ImportOptions,
  ImportResult,
  RollbackOptions,
  SetVersionStateOptions,
  StatsDelta,
  VersionContrast,
} from "../library-store.js";
import { addStats } from "./add-stats.js";
import { SqlLibraryTables, toLibraryVersion } from "./sql-library-tables.js";
import { all, run, type Sql, type SqlPort } from "./sql-port.js";

/**
 * The experience libraries of a SQL store. Each write (apply, state change, rollback, stats, import) is one write
 * transaction that first takes the domain's row (SQLite: `BEGIN IMMEDIATE` holds the file's write lock; PostgreSQL:
 * `SELECT ... FOR UPDATE`): the head and the counters it reads cannot move under it, so writers from any number of
 * processes serialize per domain, a commit on a parent that is no longer the head is a `conflict`, and an id is
 * handed out once. A version, its entry rows and the domain's counters land together or not at all.
 */
export class SqlLibraryStore extends BaseLibraryStore {
  private readonly tables: SqlLibraryTables;

  constructor(private readonly db: SqlPort) {
    super();
    this.tables = new SqlLibraryTables(db.dialect);
  }

  async applyOperations(
    domain: string,
    ops: readonly Operation[],
    options: ApplyOptions,
  ): Promise<ApplyResult> {
    checkDomain(domain);
    const now = (options.now ?? this.db.now()).toISOString();
    const gate = options.gate === undefined ? undefined : parseGate(options.gate);
    const t = this.tables;
    return this.db.write(function* () {
      const current = yield* t.ensureDomain(domain, now);
      const parent = options.parent;
      const parentRow = parent === null ? null : yield* t.requireVersionRow(domain, parent);
      if (options.state === "committed" && !options.force && parent !== current.head_version) {
        throw staleParentError(domain, null, parent, current.head_version);
      }
      const wanted = referencedIds(ops).filter((id) => experienceIdSchema.safeParse(id).success);
      const parentEntries =
        parent === null ? new Map<string, Experience>() : yield* t.loadEntries(domain, parent, wanted);
      const lookup = (id: string) => parentEntries.get(id);
      const validOps = validateOperations({ domain, parent, ops, lookup });
      const version = current.next_version;
      const runId = options.runId ?? null;
      const plan = planOperations({
        domain,
        version,
        nextOrdinal: current.next_id,
        runId,
        now,
        ops: validOps,
        lookup,
      });
      yield* t.insertVersion({
        domain,
        version,
        parent,
        state: options.state,
        ops: validOps,
        gate,
        runId,
        message: options.message,
        entryCount: (parentRow?.entry_count ?? 0) + plan.created.length,
        now,
      });
      if (parent !== null) yield* t.copyEntries(domain, parent, version);
      yield* t.writeEntries(domain, version, plan.changed);
      yield* t.setStats(domain, plan.initialStats);
      yield* t.finishVersion(
        domain,
        version,
        plan.nextOrdinal,
        options.state === "committed",
        options.faults,
      );
      return {
        version: toLibraryVersion(yield* t.requireVersionRow(domain, version)),
        createdIds: plan.created.map((c) => c.id),
        created: plan.created,
      };
    });
  }

  async setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
    options: SetVersionStateOptions = {},
  ): Promise<LibraryVersion> {
    checkDomain(domain);
    const now = (options.now ?? this.db.now()).toISOString();
    const gateJson = gate === undefined ? null : JSON.stringify(parseGate(gate));
    const t = this.tables;
    return this.db.write(function* () {
      // The domain first: the head it compares with cannot move until this commits.
      const domainRow = yield* t.requireDomain(domain, true);
      const row = yield* t.requireVersionRow(domain, version);
      // Setting the state a version already has is a no-op, so a resumed run can repeat its last step safely.
      if (row.state === state) return toLibraryVersion(row);
      if (row.state !== "proposed") throw immutableVersionError(domain, version, row.state, state);
      if (state === "committed") {
        const head = domainRow.head_version;
        if (!options.force && row.parent !== head) throw staleParentError(domain, version, row.parent, head);
      }
      yield* run(
        `UPDATE library_versions SET state = ?, gate = coalesce(?, gate), state_changed_at = ?
         WHERE domain = ? AND version = ?`,
        [state, gateJson, now, domain, version],
      );
      if (state === "committed")
        yield* run("UPDATE library_domains SET head_version = ? WHERE domain = ?", [version, domain]);
      return toLibraryVersion(yield* t.requireVersionRow(domain, version));
    });
  }

  async getHead(domain: string): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    const t = this.tables;
    // A version's entry set never changes: the head number and then its entries are a consistent snapshot.
    return this.db.read(function* () {
      const head = (yield* t.domainRow(domain))?.head_version ?? null;
      return head === null ? null : yield* t.snapshot(domain, head);
    });
  }

  async getHeadVersion(domain: string): Promise<number | null> {
    checkDomain(domain);
    return (await this.db.run(() => this.tables.domainRow(domain)))?.head_version ?? null;
  }

  async listVersionContrasts(domain: string, id: string): Promise<VersionContrast[]> {
    checkDomain(domain);
    const rows = await this.db.run(() =>
      all<{ version: number; n: number; sum: number; sum_squares: number }>(
        `SELECT version, n, sum, sum_squares FROM experience_version_contrasts
         WHERE domain = ? AND ordinal = ? ORDER BY version`,
        [domain, experienceOrdinal(experienceIdSchema.parse(id))],
      ),
    );
    return rows.map((row) => ({
      version: row.version,
      contrast: { n: row.n, sum: row.sum, sumSquares: row.sum_squares },
    }));
  }

  async getVersion(domain: string, version: number): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    const t = this.tables;
    return this.db.read(function* () {
      return (yield* t.versionRow(domain, version)) ? yield* t.snapshot(domain, version) : null;
    });
  }

  async getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null> {
    checkDomain(domain);
    const row = await this.db.run(() => this.tables.versionRow(domain, version));
    return row ? toLibraryVersion(row) : null;
  }

  async listVersions(domain: string): Promise<LibraryVersion[]> {
    checkDomain(domain);
    return (await this.db.run(() => this.tables.listVersionRows(domain))).map(toLibraryVersion);
  }

  async listDomains(): Promise<DomainSummary[]> {
    return this.db.read(function* () {
      const rows = yield* all<{
        domain: string;
        next_id: number;
        head_version: number | null;
        versions: number;
        latest: number | null;
      }>(
        `SELECT d.domain, d.next_id, d.head_version,
           (SELECT CAST(count(*) AS INTEGER) FROM library_versions v WHERE v.domain = d.domain) AS versions,
           (SELECT max(version) FROM library_versions v WHERE v.domain = d.domain) AS latest
         FROM library_domains d ORDER BY d.domain`,
      );
      const counts = yield* all<{ domain: string; status: Experience["status"]; n: number }>(
        `SELECT d.domain, r.status, CAST(count(*) AS INTEGER) AS n FROM library_domains d
           JOIN version_entries v ON v.domain = d.domain AND v.version = d.head_version
           JOIN experience_rows r ON r.row_id = v.row_id
         GROUP BY d.domain, r.status`,
      );
      return rows.map((row) => {
        const headCounts = { candidate: 0, active: 0, probation: 0, archived: 0 };
        for (const { status, n } of counts.filter((c) => c.domain === row.domain)) headCounts[status] = n;
        return {
          domain: row.domain,
          head: row.head_version,
          latestVersion: row.latest,
          versions: row.versions,
          nextId: row.next_id,
          headCounts,
        };
      });
    });
  }

  async rollback(domain: string, toVersion: number, options: RollbackOptions = {}): Promise<LibraryVersion> {
    checkDomain(domain);
    const now = (options.now ?? this.db.now()).toISOString();
    const t = this.tables;
    return this.db.write(function* () {
      const current = yield* t.requireDomain(domain, true);
      if (options.expectedHead !== undefined && current.head_version !== options.expectedHead)
        throw staleParentError(domain, null, options.expectedHead, current.head_version);
      const target = yield* t.requireVersionRow(domain, toVersion);
      if (target.state !== "committed") throw rollbackToUncommittedError(domain, toVersion, target.state);
      const version = current.next_version;
      yield* t.insertVersion({
        domain,
        version,
        parent: current.head_version,
        state: "committed",
        ops: [],
        gate: undefined,
        runId: options.runId ?? null,
        message: options.message ?? `rollback to v${toVersion}`,
        entryCount: target.entry_count,
        now,
      });
      yield* t.copyEntries(domain, toVersion, version);
      // The id counter stays where it is: ids handed out after the target version are never reused.
      yield* t.finishVersion(domain, version, current.next_id, true, options.faults);
      return toLibraryVersion(yield* t.requireVersionRow(domain, version));
    });
  }

  async updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    checkDomain(domain);
    parseStatsDeltas(domain, deltas); // Refused before a transaction is begun.
    return this.db.write(() => this.addStats(domain, deltas));
  }

  /**
   * `updateStats` inside a write transaction the caller already holds (an outcome and the credit it gives land
   * together). Throws, leaving the caller's transaction to roll back, on an invalid delta or an unknown id.
   */
  addStats(domain: string, deltas: readonly StatsDelta[]): Sql<number> {
    return addStats(this.tables, domain, deltas);
  }

  protected async writeImport(
    domain: string,
    parsed: ParsedLibraryFile,
    options: ImportOptions & { file: string },
  ): Promise<ImportResult> {
    const now = (options.now ?? this.db.now()).toISOString();
    const t = this.tables;
    return this.db.write(function* () {
      const current = yield* t.ensureDomain(domain, now);
      const replace = options.replace === true;
      const parent = current.head_version;
      const parentRow = parent === null ? null : yield* t.requireVersionRow(domain, parent);
      // Only a restore needs the head's ids (a plain import adds to the head without reading it).
      const headIds = new Set(
        replace && parent !== null ? (yield* t.snapshot(domain, parent)).experiences.map((e) => e.id) : [],
      );
      const plan = planImport({
        domain,
        parsed,
        options,
        current: { nextId: current.next_id, nextVersion: current.next_version, head: parent },
        parentEntryCount: parentRow?.entry_count ?? 0,
        headIds,
        now,
      });
      const { version } = plan;
      yield* t.insertVersion({
        domain,
        version,
        parent,
        state: "committed",
        ops: plan.ops,
        gate: undefined,
        runId: options.runId ?? null,
        message: plan.message,
        entryCount: plan.entryCount,
        now,
      });
      if (parent !== null && !replace) yield* t.copyEntries(domain, parent, version);
      yield* t.writeEntries(domain, version, plan.experiences);
      yield* t.setStats(
        domain,
        plan.experiences.filter(plan.writesStats).map((e) => ({ id: e.id, text: e.text, stats: e.stats })),
      );
      yield* t.finishVersion(domain, version, plan.nextOrdinal, true, options.faults);
      return {
        version: toLibraryVersion(yield* t.requireVersionRow(domain, version)),
        format: parsed.format,
        ids: plan.ids,
        preservedIds: plan.preservedIds,
        entries: plan.experiences.length,
      };
    });
  }
}
