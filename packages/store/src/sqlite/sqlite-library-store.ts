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
  contrastVersions,
  immutableVersionError,
  measuredText,
  parseGate,
  parseStatsDeltas,
  rollbackToUncommittedError,
  staleParentError,
  unknownStatsIdsError,
  versionTextKey,
} from "../library/library-write-rules.js";
import { planImport } from "../library/plan-import.js";
import { experienceId, experienceOrdinal, planOperations } from "../library/plan-operations.js";
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
import type { SqliteConnection } from "./sqlite-connection.js";
import { SqliteLibraryTables, toLibraryVersion, type VersionRow } from "./sqlite-library-tables.js";

/**
 * The experience libraries of a SQLite store. Each write (apply, state change, rollback, stats, import) is one
 * `BEGIN IMMEDIATE` transaction on the shared connection: a version, its entry rows and the domain's counters land
 * together or not at all.
 */
export class SqliteLibraryStore extends BaseLibraryStore {
  private readonly connection: SqliteConnection;
  private readonly tables: SqliteLibraryTables;

  constructor(connection: SqliteConnection) {
    super();
    this.connection = connection;
    this.tables = new SqliteLibraryTables(connection);
  }

  async applyOperations(
    domain: string,
    ops: readonly Operation[],
    options: ApplyOptions,
  ): Promise<ApplyResult> {
    checkDomain(domain);
    const now = (options.now ?? this.connection.now()).toISOString();
    const gate = options.gate === undefined ? undefined : parseGate(options.gate);
    return this.connection.write(() => {
      const current = this.tables.ensureDomain(domain, now);
      const parent = options.parent;
      const parentRow = parent === null ? null : this.tables.requireVersionRow(domain, parent);
      if (options.state === "committed" && !options.force && parent !== current.head_version) {
        throw staleParentError(domain, null, parent, current.head_version);
      }
      const wanted = referencedIds(ops).filter((id) => experienceIdSchema.safeParse(id).success);
      const parentEntries =
        parent === null ? new Map<string, Experience>() : this.tables.loadEntries(domain, parent, wanted);
      const lookup = (id: string) => parentEntries.get(id);
      const validOps = validateOperations({ domain, parent, ops, lookup });
      const version = current.next_version;
      const plan = planOperations({
        domain,
        version,
        nextOrdinal: current.next_id,
        runId: options.runId ?? null,
        now,
        ops: validOps,
        lookup,
      });
      this.tables.insertVersion({
        domain,
        version,
        parent,
        state: options.state,
        ops: validOps,
        gate,
        runId: options.runId ?? null,
        message: options.message,
        entryCount: (parentRow?.entry_count ?? 0) + plan.created.length,
        now,
      });
      if (parent !== null) this.tables.copyEntries(domain, parent, version);
      for (const entry of plan.changed) this.tables.writeEntry(domain, version, entry);
      for (const { id, text, stats } of plan.initialStats) this.tables.setStats(domain, id, text, stats);
      this.tables.finishVersion(
        domain,
        version,
        plan.nextOrdinal,
        options.state === "committed",
        options.faults,
      );
      return {
        version: toLibraryVersion(this.tables.requireVersionRow(domain, version)),
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
    const now = (options.now ?? this.connection.now()).toISOString();
    const gateJson = gate === undefined ? null : JSON.stringify(parseGate(gate));
    return this.connection.write(() => {
      const row = this.tables.requireVersionRow(domain, version);
      // Setting the state a version already has is a no-op, so a resumed run can repeat its last step safely.
      if (row.state === state) return toLibraryVersion(row);
      if (row.state !== "proposed") throw immutableVersionError(domain, version, row.state, state);
      if (state === "committed") {
        const head = this.tables.requireDomain(domain).head_version;
        if (!options.force && row.parent !== head) throw staleParentError(domain, version, row.parent, head);
      }
      this.connection
        .stmt(
          `UPDATE library_versions SET state = ?, gate = coalesce(?, gate), state_changed_at = ?
         WHERE domain = ? AND version = ?`,
        )
        .run(state, gateJson, now, domain, version);
      if (state === "committed") {
        this.connection
          .stmt("UPDATE library_domains SET head_version = ? WHERE domain = ?")
          .run(version, domain);
      }
      return toLibraryVersion(this.tables.requireVersionRow(domain, version));
    });
  }

  async getHead(domain: string): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    // One read transaction: the head number and its entries come from the same database snapshot.
    return this.connection.read(() => {
      const head = this.tables.domainRow(domain)?.head_version ?? null;
      return head === null ? null : this.tables.snapshot(domain, head);
    });
  }

  async getHeadVersion(domain: string): Promise<number | null> {
    checkDomain(domain);
    return this.tables.domainRow(domain)?.head_version ?? null;
  }

  async listVersionContrasts(domain: string, id: string): Promise<VersionContrast[]> {
    checkDomain(domain);
    const rows = this.connection
      .stmt(
        `SELECT version, n, sum, sum_squares FROM experience_version_contrasts
         WHERE domain = ? AND ordinal = ? ORDER BY version`,
      )
      .all(domain, experienceOrdinal(experienceIdSchema.parse(id))) as Array<{
      version: number;
      n: number;
      sum: number;
      sum_squares: number;
    }>;
    return rows.map((row) => ({
      version: row.version,
      contrast: { n: row.n, sum: row.sum, sumSquares: row.sum_squares },
    }));
  }

  async getVersion(domain: string, version: number): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    return this.connection.read(() =>
      this.tables.versionRow(domain, version) ? this.tables.snapshot(domain, version) : null,
    );
  }

  async getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null> {
    checkDomain(domain);
    const row = this.tables.versionRow(domain, version);
    return row ? toLibraryVersion(row) : null;
  }

  async listVersions(domain: string): Promise<LibraryVersion[]> {
    checkDomain(domain);
    const rows = this.connection
      .stmt("SELECT * FROM library_versions WHERE domain = ? ORDER BY version")
      .all(domain) as VersionRow[];
    return rows.map(toLibraryVersion);
  }

  async listDomains(): Promise<DomainSummary[]> {
    return this.connection.read(() => {
      const rows = this.connection
        .stmt(
          `SELECT d.domain, d.next_id, d.head_version,
           (SELECT count(*) FROM library_versions v WHERE v.domain = d.domain) AS versions,
           (SELECT max(version) FROM library_versions v WHERE v.domain = d.domain) AS latest
         FROM library_domains d ORDER BY d.domain`,
        )
        .all() as Array<{
        domain: string;
        next_id: number;
        head_version: number | null;
        versions: number;
        latest: number | null;
      }>;
      return rows.map((row) => {
        const headCounts = { candidate: 0, active: 0, probation: 0, archived: 0 };
        if (row.head_version !== null) {
          const counts = this.connection
            .stmt(
              `SELECT r.status, count(*) AS n FROM version_entries v JOIN experience_rows r ON r.row_id = v.row_id
             WHERE v.domain = ? AND v.version = ? GROUP BY r.status`,
            )
            .all(row.domain, row.head_version) as Array<{ status: Experience["status"]; n: number }>;
          for (const { status, n } of counts) headCounts[status] = n;
        }
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
    const now = (options.now ?? this.connection.now()).toISOString();
    return this.connection.write(() => {
      const current = this.tables.requireDomain(domain);
      if (options.expectedHead !== undefined && current.head_version !== options.expectedHead)
        throw staleParentError(domain, null, options.expectedHead, current.head_version);
      const target = this.tables.requireVersionRow(domain, toVersion);
      if (target.state !== "committed") throw rollbackToUncommittedError(domain, toVersion, target.state);
      const version = current.next_version;
      this.tables.insertVersion({
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
      this.tables.copyEntries(domain, toVersion, version);
      // The id counter stays where it is: ids handed out after the target version are never reused.
      this.tables.finishVersion(domain, version, current.next_id, true, options.faults);
      return toLibraryVersion(this.tables.requireVersionRow(domain, version));
    });
  }

  async updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    return this.connection.write(() => this.addStats(domain, deltas));
  }

  /**
   * `updateStats` inside a write transaction the caller already holds (an outcome and the credit it gives land
   * together). Throws, leaving the caller's transaction to roll back, on an invalid delta or an unknown id.
   */
  addStats(domain: string, deltas: readonly StatsDelta[]): number {
    checkDomain(domain);
    const valid = parseStatsDeltas(domain, deltas);
    const ordinals = [...new Set(valid.map((d) => experienceOrdinal(d.id)))];
    const known = new Set(
      (
        this.connection
          .stmt(
            `SELECT DISTINCT ordinal FROM experience_rows
           WHERE domain = ? AND ordinal IN (SELECT value FROM json_each(?))`,
          )
          .all(domain, JSON.stringify(ordinals)) as Array<{ ordinal: number }>
      ).map((r) => r.ordinal),
    );
    const unknown = ordinals.filter((o) => !known.has(o)).map(experienceId);
    if (unknown.length > 0) throw unknownStatsIdsError(domain, unknown);
    // The wording each contrast was measured on: the entry's text in the version its rollouts read.
    const texts = new Map<string, string>();
    for (const [version, wanted] of contrastVersions(valid))
      for (const [ordinal, text] of this.tables.textsAt(domain, version, wanted))
        texts.set(versionTextKey(ordinal, version), text);
    // One statement for all deltas (rows are applied in order, so repeated ids add up as separate upserts would).
    this.connection
      .stmt(
        `INSERT INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version,
           contrast_n, contrast_sum, contrast_sum_squares, contrast_text)
         SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
           json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
           json_extract(value, '$[6]'), json_extract(value, '$[7]'), json_extract(value, '$[8]')
         FROM json_each(?) WHERE true
         ON CONFLICT (domain, ordinal) DO UPDATE SET
           shown = shown + excluded.shown,
           success = success + excluded.success,
           sum_delta = sum_delta + excluded.sum_delta,
           -- A contrast measured on another wording than the stored one starts the counters again.
           contrast_n = CASE WHEN excluded.contrast_n = 0 THEN contrast_n
             WHEN contrast_text IS excluded.contrast_text THEN contrast_n + excluded.contrast_n
             ELSE excluded.contrast_n END,
           contrast_sum = CASE WHEN excluded.contrast_n = 0 THEN contrast_sum
             WHEN contrast_text IS excluded.contrast_text THEN contrast_sum + excluded.contrast_sum
             ELSE excluded.contrast_sum END,
           contrast_sum_squares = CASE WHEN excluded.contrast_n = 0 THEN contrast_sum_squares
             WHEN contrast_text IS excluded.contrast_text THEN contrast_sum_squares + excluded.contrast_sum_squares
             ELSE excluded.contrast_sum_squares END,
           contrast_text = CASE WHEN excluded.contrast_n = 0 THEN contrast_text ELSE excluded.contrast_text END,
           last_used_version = CASE
             WHEN excluded.last_used_version IS NULL THEN last_used_version
             WHEN last_used_version IS NULL THEN excluded.last_used_version
             ELSE max(last_used_version, excluded.last_used_version) END`,
      )
      .run(
        domain,
        JSON.stringify(
          valid.map((delta) => [
            experienceOrdinal(delta.id),
            delta.shown ?? 0,
            delta.success ?? 0,
            delta.sumDelta ?? 0,
            delta.lastUsedVersion ?? null,
            delta.contrast?.n ?? 0,
            delta.contrast?.sum ?? 0,
            delta.contrast?.sumSquares ?? 0,
            measuredText(texts, delta),
          ]),
        ),
      );
    const perVersion = valid.filter(
      (delta) => delta.contrast && delta.contrast.n > 0 && delta.lastUsedVersion != null,
    );
    if (perVersion.length > 0) {
      this.connection
        .stmt(
          `INSERT INTO experience_version_contrasts (domain, ordinal, version, n, sum, sum_squares)
           SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
             json_extract(value, '$[3]'), json_extract(value, '$[4]')
           FROM json_each(?) WHERE true
           ON CONFLICT (domain, ordinal, version) DO UPDATE SET
             n = n + excluded.n, sum = sum + excluded.sum, sum_squares = sum_squares + excluded.sum_squares`,
        )
        .run(
          domain,
          JSON.stringify(
            perVersion.map((delta) => [
              experienceOrdinal(delta.id),
              delta.lastUsedVersion,
              delta.contrast!.n,
              delta.contrast!.sum,
              delta.contrast!.sumSquares,
            ]),
          ),
        );
    }
    return ordinals.length;
  }

  protected async writeImport(
    domain: string,
    parsed: ParsedLibraryFile,
    options: ImportOptions & { file: string },
  ): Promise<ImportResult> {
    const now = (options.now ?? this.connection.now()).toISOString();
    const runId = options.runId ?? null;
    return this.connection.write(() => {
      const current = this.tables.ensureDomain(domain, now);
      const replace = options.replace === true;
      const parent = current.head_version;
      const parentRow = parent === null ? null : this.tables.requireVersionRow(domain, parent);
      // Only a restore needs the head's ids (a plain import adds to the head without reading it).
      const headIds = new Set(
        replace && parent !== null ? this.tables.snapshot(domain, parent).experiences.map((e) => e.id) : [],
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
      this.tables.insertVersion({
        domain,
        version,
        parent,
        state: "committed",
        ops: plan.ops,
        gate: undefined,
        runId,
        message: plan.message,
        entryCount: plan.entryCount,
        now,
      });
      if (parent !== null && !replace) this.tables.copyEntries(domain, parent, version);
      for (const experience of plan.experiences) {
        this.tables.writeEntry(domain, version, experience);
        if (plan.writesStats(experience))
          this.tables.setStats(domain, experience.id, experience.text, experience.stats);
      }
      this.tables.finishVersion(domain, version, plan.nextOrdinal, true, options.faults);
      return {
        version: toLibraryVersion(this.tables.requireVersionRow(domain, version)),
        format: parsed.format,
        ids: plan.ids,
        preservedIds: plan.preservedIds,
        entries: plan.experiences.length,
      };
    });
  }
}
