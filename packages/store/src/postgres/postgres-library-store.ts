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
import { toLibraryVersion } from "../sqlite/sqlite-library-tables.js";
import type { PostgresConnection, Sql } from "./postgres-connection.js";
import { PostgresLibraryTables } from "./postgres-library-tables.js";

/**
 * The experience libraries of a PostgreSQL store. Each write (apply, state change, rollback, stats, import) is one
 * transaction that starts by locking the domain's row (`SELECT ... FOR UPDATE`): the head and the counters it reads
 * cannot move under it, so concurrent writers from any process serialize per domain, a commit on a parent that is no
 * longer the head is a `conflict`, and an id is handed out once.
 */
export class PostgresLibraryStore extends BaseLibraryStore {
  private readonly connection: PostgresConnection;
  private readonly tables = new PostgresLibraryTables();

  constructor(connection: PostgresConnection) {
    super();
    this.connection = connection;
  }

  async applyOperations(
    domain: string,
    ops: readonly Operation[],
    options: ApplyOptions,
  ): Promise<ApplyResult> {
    checkDomain(domain);
    const now = (options.now ?? this.connection.now()).toISOString();
    const gate = options.gate === undefined ? undefined : parseGate(options.gate);
    const t = this.tables;
    return this.connection.transaction(async (sql) => {
      const current = await t.ensureAndLockDomain(sql, domain, now);
      const parent = options.parent;
      const parentRow = parent === null ? null : await t.requireVersionRow(sql, domain, parent);
      if (options.state === "committed" && !options.force && parent !== current.head_version) {
        throw staleParentError(domain, null, parent, current.head_version);
      }
      const wanted = referencedIds(ops).filter((id) => experienceIdSchema.safeParse(id).success);
      const parentEntries =
        parent === null ? new Map<string, Experience>() : await t.loadEntries(sql, domain, parent, wanted);
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
      await t.insertVersion(sql, {
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
      if (parent !== null) await t.copyEntries(sql, domain, parent, version);
      await t.writeEntries(sql, domain, version, plan.changed);
      await t.setStats(sql, domain, plan.initialStats);
      await t.finishVersion(
        sql,
        domain,
        version,
        plan.nextOrdinal,
        options.state === "committed",
        options.faults,
      );
      return {
        version: toLibraryVersion(await t.requireVersionRow(sql, domain, version)),
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
    const t = this.tables;
    return this.connection.transaction(async (sql) => {
      // Lock the domain first: the head it compares with cannot move until this commits.
      const domainRow = await t.domainRow(sql, domain, true);
      const row = await t.requireVersionRow(sql, domain, version);
      // Setting the state a version already has is a no-op, so a resumed run can repeat its last step safely.
      if (row.state === state) return toLibraryVersion(row);
      if (row.state !== "proposed") throw immutableVersionError(domain, version, row.state, state);
      if (state === "committed") {
        const head = domainRow?.head_version ?? null;
        if (!options.force && row.parent !== head) throw staleParentError(domain, version, row.parent, head);
      }
      await sql.query(
        `UPDATE library_versions SET state = $1, gate = coalesce($2, gate), state_changed_at = $3
         WHERE domain = $4 AND version = $5`,
        [state, gateJson, now, domain, version],
      );
      if (state === "committed") {
        await sql.query("UPDATE library_domains SET head_version = $1 WHERE domain = $2", [version, domain]);
      }
      return toLibraryVersion(await t.requireVersionRow(sql, domain, version));
    });
  }

  async getHead(domain: string): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    // A version's entry set never changes, so the head number and then its entries are a consistent snapshot.
    const head = await this.getHeadVersion(domain);
    return head === null ? null : this.tables.snapshot(this.connection, domain, head);
  }

  async getHeadVersion(domain: string): Promise<number | null> {
    checkDomain(domain);
    return (await this.tables.domainRow(this.connection, domain))?.head_version ?? null;
  }

  async listVersionContrasts(domain: string, id: string): Promise<VersionContrast[]> {
    checkDomain(domain);
    const { rows } = await this.connection.query<{
      version: number;
      n: number;
      sum: number;
      sum_squares: number;
    }>(
      `SELECT version, n, sum, sum_squares FROM experience_version_contrasts
       WHERE domain = $1 AND ordinal = $2 ORDER BY version`,
      [domain, experienceOrdinal(experienceIdSchema.parse(id))],
    );
    return rows.map((row) => ({
      version: row.version,
      contrast: { n: row.n, sum: row.sum, sumSquares: row.sum_squares },
    }));
  }

  async getVersion(domain: string, version: number): Promise<LibrarySnapshot | null> {
    checkDomain(domain);
    if (!(await this.tables.versionRow(this.connection, domain, version))) return null;
    return this.tables.snapshot(this.connection, domain, version);
  }

  async getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null> {
    checkDomain(domain);
    const row = await this.tables.versionRow(this.connection, domain, version);
    return row ? toLibraryVersion(row) : null;
  }

  async listVersions(domain: string): Promise<LibraryVersion[]> {
    checkDomain(domain);
    return (await this.tables.listVersionRows(this.connection, domain)).map(toLibraryVersion);
  }

  async listDomains(): Promise<DomainSummary[]> {
    // One statement: every number comes from the same snapshot.
    const rows = (
      await this.connection.query<{
        domain: string;
        next_id: number;
        head_version: number | null;
        versions: number;
        latest: number | null;
        counts: Record<string, number> | null;
      }>(
        `SELECT d.domain, d.next_id, d.head_version,
           (SELECT count(*)::int FROM library_versions v WHERE v.domain = d.domain) AS versions,
           (SELECT max(version) FROM library_versions v WHERE v.domain = d.domain) AS latest,
           (SELECT json_object_agg(status, n) FROM (
              SELECT r.status, count(*)::int AS n FROM version_entries v JOIN experience_rows r ON r.row_id = v.row_id
              WHERE v.domain = d.domain AND v.version = d.head_version GROUP BY r.status) c) AS counts
         FROM library_domains d ORDER BY d.domain`,
      )
    ).rows;
    return rows.map((row) => ({
      domain: row.domain,
      head: row.head_version,
      latestVersion: row.latest,
      versions: row.versions,
      nextId: row.next_id,
      headCounts: { candidate: 0, active: 0, probation: 0, archived: 0, ...(row.counts ?? {}) },
    }));
  }

  async rollback(domain: string, toVersion: number, options: RollbackOptions = {}): Promise<LibraryVersion> {
    checkDomain(domain);
    const now = (options.now ?? this.connection.now()).toISOString();
    const t = this.tables;
    return this.connection.transaction(async (sql) => {
      const current = await t.lockDomain(sql, domain);
      if (options.expectedHead !== undefined && current.head_version !== options.expectedHead)
        throw staleParentError(domain, null, options.expectedHead, current.head_version);
      const target = await t.requireVersionRow(sql, domain, toVersion);
      if (target.state !== "committed") throw rollbackToUncommittedError(domain, toVersion, target.state);
      const version = current.next_version;
      await t.insertVersion(sql, {
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
      await t.copyEntries(sql, domain, toVersion, version);
      // The id counter stays where it is: ids handed out after the target version are never reused.
      await t.finishVersion(sql, domain, version, current.next_id, true, options.faults);
      return toLibraryVersion(await t.requireVersionRow(sql, domain, version));
    });
  }

  async updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    checkDomain(domain);
    parseStatsDeltas(domain, deltas); // Refused before a connection is taken.
    return this.connection.transaction((sql) => this.addStats(sql, domain, deltas));
  }

  /**
   * Adds checked deltas inside the caller's transaction (stats alone, or an outcome with the credit it gives).
   * Throws, leaving the transaction to roll back, on an unknown id.
   */
  async addStats(sql: Sql, domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    checkDomain(domain);
    const valid = parseStatsDeltas(domain, deltas);
    const ordinals = [...new Set(valid.map((d) => experienceOrdinal(d.id)))];
    const known = new Set(
      (
        await sql.query<{ ordinal: number }>(
          "SELECT DISTINCT ordinal FROM experience_rows WHERE domain = $1 AND ordinal = ANY($2::int[])",
          [domain, ordinals],
        )
      ).rows.map((r) => r.ordinal),
    );
    const unknown = ordinals.filter((o) => !known.has(o)).map(experienceId);
    if (unknown.length > 0) throw unknownStatsIdsError(domain, unknown);
    // One row per entry (deltas of one id summed, the latest version kept), in ordinal order: one statement, and two
    // transactions adding to the same entries lock them in the same order (no deadlock).
    const byOrdinal = new Map<
      number,
      {
        shown: number;
        success: number;
        sumDelta: number;
        last: number | null;
        contrastN: number;
        contrastSum: number;
        contrastSumSquares: number;
        contrastText: string | null;
      }
    >();
    // The wording each contrast was measured on: the entry's text in the version its rollouts read.
    const texts = new Map<string, string>();
    for (const [version, wanted] of contrastVersions(valid))
      for (const [ordinal, text] of await this.tables.textsAt(sql, domain, version, wanted))
        texts.set(versionTextKey(ordinal, version), text);
    const byVersion = new Map<
      string,
      [ordinal: number, version: number, n: number, sum: number, squares: number]
    >();
    for (const delta of valid) {
      const ordinal = experienceOrdinal(delta.id);
      const sum = byOrdinal.get(ordinal) ?? {
        shown: 0,
        success: 0,
        sumDelta: 0,
        last: null,
        contrastN: 0,
        contrastSum: 0,
        contrastSumSquares: 0,
        contrastText: null,
      };
      sum.shown += delta.shown ?? 0;
      sum.success += delta.success ?? 0;
      sum.sumDelta += delta.sumDelta ?? 0;
      const text = measuredText(texts, delta);
      if (text !== null && sum.contrastText !== null && text !== sum.contrastText) {
        // Two wordings in one batch (a rewrite between the versions read): the later counters are the new wording's.
        sum.contrastN = 0;
        sum.contrastSum = 0;
        sum.contrastSumSquares = 0;
      }
      if (text !== null) sum.contrastText = text;
      sum.contrastN += delta.contrast?.n ?? 0;
      sum.contrastSum += delta.contrast?.sum ?? 0;
      sum.contrastSumSquares += delta.contrast?.sumSquares ?? 0;
      if (delta.contrast && delta.contrast.n > 0 && delta.lastUsedVersion != null) {
        const key = `${ordinal}/${delta.lastUsedVersion}`;
        const row = byVersion.get(key) ?? [ordinal, delta.lastUsedVersion, 0, 0, 0];
        row[2] += delta.contrast.n;
        row[3] += delta.contrast.sum;
        row[4] += delta.contrast.sumSquares;
        byVersion.set(key, row);
      }
      const last = delta.lastUsedVersion ?? null;
      if (last !== null) sum.last = sum.last === null ? last : Math.max(sum.last, last);
      byOrdinal.set(ordinal, sum);
    }
    const rows = [...byOrdinal.entries()].sort(([a], [b]) => a - b);
    await sql.query(
      `INSERT INTO experience_stats AS s (domain, ordinal, shown, success, sum_delta, last_used_version,
         contrast_n, contrast_sum, contrast_sum_squares, contrast_text)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::float8[], $5::float8[], $6::int[],
         $7::int[], $8::float8[], $9::float8[], $10::text[])
       ON CONFLICT (domain, ordinal) DO UPDATE SET
         shown = s.shown + excluded.shown,
         success = s.success + excluded.success,
         sum_delta = s.sum_delta + excluded.sum_delta,
         -- A contrast measured on another wording than the stored one starts the counters again.
         contrast_n = CASE WHEN excluded.contrast_n = 0 THEN s.contrast_n
           WHEN s.contrast_text IS NOT DISTINCT FROM excluded.contrast_text THEN s.contrast_n + excluded.contrast_n
           ELSE excluded.contrast_n END,
         contrast_sum = CASE WHEN excluded.contrast_n = 0 THEN s.contrast_sum
           WHEN s.contrast_text IS NOT DISTINCT FROM excluded.contrast_text THEN s.contrast_sum + excluded.contrast_sum
           ELSE excluded.contrast_sum END,
         contrast_sum_squares = CASE WHEN excluded.contrast_n = 0 THEN s.contrast_sum_squares
           WHEN s.contrast_text IS NOT DISTINCT FROM excluded.contrast_text
             THEN s.contrast_sum_squares + excluded.contrast_sum_squares
           ELSE excluded.contrast_sum_squares END,
         contrast_text = CASE WHEN excluded.contrast_n = 0 THEN s.contrast_text ELSE excluded.contrast_text END,
         last_used_version = CASE
           WHEN excluded.last_used_version IS NULL THEN s.last_used_version
           WHEN s.last_used_version IS NULL THEN excluded.last_used_version
           ELSE greatest(s.last_used_version, excluded.last_used_version) END`,
      [
        domain,
        rows.map(([ordinal]) => ordinal),
        rows.map(([, r]) => r.shown),
        rows.map(([, r]) => r.success),
        rows.map(([, r]) => r.sumDelta),
        rows.map(([, r]) => r.last),
        rows.map(([, r]) => r.contrastN),
        rows.map(([, r]) => r.contrastSum),
        rows.map(([, r]) => r.contrastSumSquares),
        rows.map(([, r]) => (r.contrastN > 0 ? r.contrastText : null)),
      ],
    );
    if (byVersion.size > 0) {
      const versionRows = [...byVersion.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      await sql.query(
        `INSERT INTO experience_version_contrasts AS c (domain, ordinal, version, n, sum, sum_squares)
         SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::float8[], $6::float8[])
         ON CONFLICT (domain, ordinal, version) DO UPDATE SET
           n = c.n + excluded.n, sum = c.sum + excluded.sum, sum_squares = c.sum_squares + excluded.sum_squares`,
        [
          domain,
          versionRows.map((row) => row[0]),
          versionRows.map((row) => row[1]),
          versionRows.map((row) => row[2]),
          versionRows.map((row) => row[3]),
          versionRows.map((row) => row[4]),
        ],
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
    const t = this.tables;
    return this.connection.transaction(async (sql) => {
      const current = await t.ensureAndLockDomain(sql, domain, now);
      const replace = options.replace === true;
      const parent = current.head_version;
      const parentRow = parent === null ? null : await t.requireVersionRow(sql, domain, parent);
      // Only a restore needs the head's ids (a plain import adds to the head without reading it).
      const headIds = new Set(
        replace && parent !== null
          ? (await t.snapshot(sql, domain, parent)).experiences.map((e) => e.id)
          : [],
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
      await t.insertVersion(sql, {
        domain,
        version: plan.version,
        parent,
        state: "committed",
        ops: plan.ops,
        gate: undefined,
        runId: options.runId ?? null,
        message: plan.message,
        entryCount: plan.entryCount,
        now,
      });
      if (parent !== null && !replace) await t.copyEntries(sql, domain, parent, plan.version);
      await t.writeEntries(sql, domain, plan.version, plan.experiences);
      await t.setStats(
        sql,
        domain,
        plan.experiences.filter(plan.writesStats).map((e) => ({ id: e.id, text: e.text, stats: e.stats })),
      );
      await t.finishVersion(sql, domain, plan.version, plan.nextOrdinal, true, options.faults);
      return {
        version: toLibraryVersion(await t.requireVersionRow(sql, domain, plan.version)),
        format: parsed.format,
        ids: plan.ids,
        preservedIds: plan.preservedIds,
        entries: plan.experiences.length,
      };
    });
  }
}
