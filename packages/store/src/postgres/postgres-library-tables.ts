import {
  type Experience,
  type GateDecision,
  type LibrarySnapshot,
  type LibraryVersion,
  type Operation,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { canonicalExperience } from "../library/canonical-experience.js";
import { type EntryRow, toExperience } from "../library/entry-row.js";
import { experienceId, experienceOrdinal } from "../library/plan-operations.js";
import type { StoreFaults } from "../library-store.js";
import type { VersionRow } from "../sqlite/sqlite-library-tables.js";
import type { Sql } from "./postgres-connection.js";

export interface DomainRow {
  domain: string;
  next_id: number;
  next_version: number;
  head_version: number | null;
}

const entryColumns = `r.row_id, r.ordinal, r.text, r.status, r.scope, r.conflict_group, r.provenance, r.history,
  r.created_at, r.updated_at, s.shown, s.success, s.sum_delta, s.last_used_version,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_n ELSE 0 END,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_sum ELSE 0 END,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_sum_squares ELSE 0 END`;
const entryJoin = `FROM version_entries v
  JOIN experience_rows r ON r.row_id = v.row_id
  LEFT JOIN experience_stats s ON s.domain = v.domain AND s.ordinal = v.ordinal`;
const versionColumns = "domain, version, parent, state, ops, gate, run_id, message, entry_count, created_at";

/**
 * The rows behind the libraries, the same tables as SQLite's (`library_domains`, `library_versions`,
 * `experience_rows`, `version_entries`, `experience_stats`). Every step runs on the caller's client (inside its
 * transaction, or the pool for a lone read); none opens a transaction itself. Many rows go in one statement
 * (`unnest` of arrays), so a version of thousands of entries costs a few round trips, not thousands.
 */
export class PostgresLibraryTables {
  async domainRow(sql: Sql, domain: string, lock = false): Promise<DomainRow | undefined> {
    const result = await sql.query<DomainRow>(
      `SELECT domain, next_id, next_version, head_version FROM library_domains WHERE domain = $1${lock ? " FOR UPDATE" : ""}`,
      [domain],
    );
    return result.rows[0];
  }

  /** The domain's row, locked until the transaction ends: writers of one domain take turns here. */
  async lockDomain(sql: Sql, domain: string): Promise<DomainRow> {
    const row = await this.domainRow(sql, domain, true);
    if (!row) throw new TfgrpoError("not_found", `no library ${domain}`, { details: { domain } });
    return row;
  }

  async ensureAndLockDomain(sql: Sql, domain: string, now: string): Promise<DomainRow> {
    await sql.query(
      "INSERT INTO library_domains (domain, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
      [domain, now],
    );
    return this.lockDomain(sql, domain);
  }

  async versionRow(sql: Sql, domain: string, version: number): Promise<VersionRow | undefined> {
    const result = await sql.query<VersionRow>(
      `SELECT ${versionColumns} FROM library_versions WHERE domain = $1 AND version = $2`,
      [domain, version],
    );
    return result.rows[0];
  }

  async requireVersionRow(sql: Sql, domain: string, version: number): Promise<VersionRow> {
    const row = await this.versionRow(sql, domain, version);
    if (!row) {
      throw new TfgrpoError("not_found", `library ${domain} has no version ${version}`, {
        details: { domain, version },
      });
    }
    return row;
  }

  async listVersionRows(sql: Sql, domain: string): Promise<VersionRow[]> {
    return (
      await sql.query<VersionRow>(
        `SELECT ${versionColumns} FROM library_versions WHERE domain = $1 ORDER BY version`,
        [domain],
      )
    ).rows;
  }

  /** A version's entries with current stats; a version's entry set never changes, so one statement suffices. */
  async snapshot(sql: Sql, domain: string, version: number): Promise<LibrarySnapshot> {
    const rows = await this.entries(sql, "v.domain = $1 AND v.version = $2", [domain, version]);
    return { domain, version, experiences: rows.map((row) => toExperience(domain, row)) };
  }

  async loadEntries(
    sql: Sql,
    domain: string,
    version: number,
    ids: readonly string[],
  ): Promise<Map<string, Experience>> {
    if (ids.length === 0) return new Map();
    const rows = await this.entries(sql, "v.domain = $1 AND v.version = $2 AND v.ordinal = ANY($3::int[])", [
      domain,
      version,
      ids.map(experienceOrdinal),
    ]);
    return new Map(rows.map((row) => [experienceId(row[1]), toExperience(domain, row)]));
  }

  async insertVersion(
    sql: Sql,
    v: {
      domain: string;
      version: number;
      parent: number | null;
      state: LibraryVersion["state"];
      ops: readonly Operation[];
      gate: GateDecision | undefined;
      runId: string | null;
      message: string | undefined;
      entryCount: number;
      now: string;
    },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO library_versions (domain, version, parent, state, ops, gate, run_id, message, entry_count,
       created_at, state_changed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        v.domain,
        v.version,
        v.parent,
        v.state,
        JSON.stringify(v.ops),
        v.gate === undefined ? null : JSON.stringify(v.gate),
        v.runId,
        v.message ?? null,
        v.entryCount,
        v.now,
        v.state === "proposed" ? null : v.now,
      ],
    );
  }

  /** The new version starts as a copy of the references of `from`: unchanged entries share their rows. */
  async copyEntries(sql: Sql, domain: string, from: number, to: number): Promise<void> {
    await sql.query(
      `INSERT INTO version_entries (domain, version, ordinal, row_id)
       SELECT domain, $1, ordinal, row_id FROM version_entries WHERE domain = $2 AND version = $3`,
      [to, domain, from],
    );
  }

  /** New rows for new or changed entries, and the version's references to them (replacing the copied ones). */
  async writeEntries(
    sql: Sql,
    domain: string,
    version: number,
    entries: readonly Experience[],
  ): Promise<void> {
    if (entries.length === 0) return;
    const canonical = entries.map(canonicalExperience);
    const column = <T>(pick: (e: Experience) => T) => canonical.map(pick);
    const inserted = await sql.query<{ row_id: string; ordinal: number }>(
      `INSERT INTO experience_rows (domain, ordinal, text, status, scope, conflict_group, provenance, history,
         created_at, updated_at)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::text[])
       RETURNING row_id, ordinal`,
      [
        domain,
        column((e) => experienceOrdinal(e.id)),
        column((e) => e.text),
        column((e) => e.status),
        column((e) => (e.scope === undefined ? null : JSON.stringify(e.scope))),
        column((e) => e.conflictGroup ?? null),
        column((e) => JSON.stringify(e.provenance)),
        column((e) => JSON.stringify(e.history)),
        column((e) => e.createdAt),
        column((e) => e.updatedAt),
      ],
    );
    // One entry may change twice in one set (the last row wins, as in a loop of single writes).
    const latest = new Map<number, string>();
    for (const row of inserted.rows) {
      const previous = latest.get(row.ordinal);
      if (previous === undefined || BigInt(row.row_id) > BigInt(previous))
        latest.set(row.ordinal, row.row_id);
    }
    await sql.query(
      `INSERT INTO version_entries (domain, version, ordinal, row_id)
       SELECT $1, $2, * FROM unnest($3::int[], $4::bigint[])
       ON CONFLICT (domain, version, ordinal) DO UPDATE SET row_id = excluded.row_id`,
      [domain, version, [...latest.keys()], [...latest.values()]],
    );
  }

  /** Sets entries' stats outright (new entries' initial stats, imported entries' recorded ones). */
  async setStats(
    sql: Sql,
    domain: string,
    stats: ReadonlyArray<{ id: string; text: string; stats: Experience["stats"] }>,
  ): Promise<void> {
    if (stats.length === 0) return;
    // Last one wins for an id given twice, as in a loop of single writes.
    const byOrdinal = new Map(stats.map((s) => [experienceOrdinal(s.id), s]));
    const entries = [...byOrdinal.values()];
    const values = entries.map((s) => s.stats);
    await sql.query(
      `INSERT INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version,
         contrast_n, contrast_sum, contrast_sum_squares, contrast_text)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::float8[], $5::float8[], $6::int[],
         $7::int[], $8::float8[], $9::float8[], $10::text[])
       ON CONFLICT (domain, ordinal) DO UPDATE SET shown = excluded.shown, success = excluded.success,
         sum_delta = excluded.sum_delta, last_used_version = excluded.last_used_version,
         contrast_n = excluded.contrast_n, contrast_sum = excluded.contrast_sum,
         contrast_sum_squares = excluded.contrast_sum_squares, contrast_text = excluded.contrast_text`,
      [
        domain,
        [...byOrdinal.keys()],
        values.map((s) => s.shown),
        values.map((s) => s.success),
        values.map((s) => s.sumDelta),
        values.map((s) => s.lastUsedVersion),
        values.map((s) => s.contrast?.n ?? 0),
        values.map((s) => s.contrast?.sum ?? 0),
        values.map((s) => s.contrast?.sumSquares ?? 0),
        entries.map((s) => (s.stats.contrast ? s.text : null)),
      ],
    );
  }

  /** The text of each given entry in a version (ordinal -> text). */
  async textsAt(
    sql: Sql,
    domain: string,
    version: number,
    ordinals: readonly number[],
  ): Promise<Map<number, string>> {
    const { rows } = await sql.query<{ ordinal: number; text: string }>(
      `SELECT v.ordinal, r.text FROM version_entries v JOIN experience_rows r ON r.row_id = v.row_id
       WHERE v.domain = $1 AND v.version = $2 AND v.ordinal = ANY($3::int[])`,
      [domain, version, ordinals],
    );
    return new Map(rows.map((row) => [row.ordinal, row.text]));
  }

  async finishVersion(
    sql: Sql,
    domain: string,
    version: number,
    nextId: number,
    commit: boolean,
    faults: StoreFaults | undefined,
  ): Promise<void> {
    faults?.afterRows?.();
    await sql.query(
      `UPDATE library_domains SET next_id = $1, next_version = $2,
       head_version = CASE WHEN $3 THEN $4::int ELSE head_version END WHERE domain = $5`,
      [nextId, version + 1, commit, version, domain],
    );
  }

  private async entries(sql: Sql, where: string, values: unknown[]): Promise<EntryRow[]> {
    const result = await sql.query({
      text: `SELECT ${entryColumns} ${entryJoin} WHERE ${where} ORDER BY v.ordinal`,
      values,
      rowMode: "array",
    });
    return result.rows as unknown as EntryRow[];
  }
}
