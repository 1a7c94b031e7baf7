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
import { all, allMany, type Dialect, get, raw, run, runMany, type Sql } from "./sql-port.js";
import { readStoredJson } from "./stored-json.js";

export interface DomainRow {
  domain: string;
  next_id: number;
  next_version: number;
  head_version: number | null;
}

export interface VersionRow {
  domain: string;
  version: number;
  parent: number | null;
  state: LibraryVersion["state"];
  ops: string;
  gate: string | null;
  run_id: string | null;
  message: string | null;
  entry_count: number;
  created_at: string;
}

export interface NewVersion {
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
}

const entryColumns = `r.row_id, r.ordinal, r.text, r.status, r.scope, r.conflict_group, r.provenance, r.history,
  r.created_at, r.updated_at, s.shown, s.success, s.sum_delta, s.last_used_version,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_n ELSE 0 END,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_sum ELSE 0 END,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_sum_squares ELSE 0 END`;
const entryJoin = `FROM version_entries v
  JOIN experience_rows r ON r.row_id = v.row_id
  LEFT JOIN experience_stats s ON s.domain = v.domain AND s.ordinal = v.ordinal`;
export const versionColumns =
  "domain, version, parent, state, ops, gate, run_id, message, entry_count, created_at";
/** `experience_stats` (domain, ordinal, shown, success, sum_delta, last_used_version, contrast n, sum, squares, text). */
export const statsTypes = [
  "text",
  "int",
  "int",
  "float8",
  "float8",
  "int",
  "int",
  "float8",
  "float8",
  "text",
] as const;

/**
 * The rows behind the libraries: `library_domains` (counters and head), `library_versions`, `experience_rows`
 * (immutable entry contents, a new row only when an entry changes), `version_entries` (each version's references to
 * its rows) and `experience_stats`. The library store builds its transactions from these steps; none opens one.
 */
export class SqlLibraryTables {
  constructor(readonly dialect: Dialect) {}

  /** With `lock`, the row stays locked until the transaction ends: writers of one domain take turns here. */
  domainRow(domain: string, lock = false): Sql<DomainRow | undefined> {
    return get<DomainRow>(
      `SELECT domain, next_id, next_version, head_version FROM library_domains WHERE domain = ?${lock ? this.dialect.forUpdate : ""}`,
      [domain],
    );
  }

  *requireDomain(domain: string, lock = false): Sql<DomainRow> {
    const row = yield* this.domainRow(domain, lock);
    if (!row) throw new TfgrpoError("not_found", `no library ${domain}`, { details: { domain } });
    return row;
  }

  *ensureDomain(domain: string, now: string): Sql<DomainRow> {
    yield* run("INSERT INTO library_domains (domain, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING", [
      domain,
      now,
    ]);
    return yield* this.requireDomain(domain, true);
  }

  versionRow(domain: string, version: number): Sql<VersionRow | undefined> {
    return get<VersionRow>(
      `SELECT ${versionColumns} FROM library_versions WHERE domain = ? AND version = ?`,
      [domain, version],
    );
  }

  *requireVersionRow(domain: string, version: number): Sql<VersionRow> {
    const row = yield* this.versionRow(domain, version);
    if (!row) {
      throw new TfgrpoError("not_found", `library ${domain} has no version ${version}`, {
        details: { domain, version },
      });
    }
    return row;
  }

  listVersionRows(domain: string): Sql<VersionRow[]> {
    return all<VersionRow>(
      `SELECT ${versionColumns} FROM library_versions WHERE domain = ? ORDER BY version`,
      [domain],
    );
  }

  /** A version's entries with current stats; a version's entry set never changes, so one statement suffices. */
  *snapshot(domain: string, version: number): Sql<LibrarySnapshot> {
    const rows = yield* this.entries("v.domain = ? AND v.version = ?", [domain, version]);
    return { domain, version, experiences: rows.map((row) => toExperience(domain, row)) };
  }

  *loadEntries(domain: string, version: number, ids: readonly string[]): Sql<Map<string, Experience>> {
    if (ids.length === 0) return new Map();
    const rows = yield* this.entries(
      `v.domain = ? AND v.version = ? AND ${this.dialect.inList("v.ordinal", "int")}`,
      [domain, version, ids.map(experienceOrdinal)],
    );
    return new Map(rows.map((row) => [experienceId(row[1]), toExperience(domain, row)]));
  }

  insertVersion(v: NewVersion): Sql<number> {
    return run(
      `INSERT INTO library_versions (domain, version, parent, state, ops, gate, run_id, message, entry_count,
       created_at, state_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  copyEntries(domain: string, from: number, to: number): Sql<number> {
    return run(
      `INSERT INTO version_entries (domain, version, ordinal, row_id)
       SELECT domain, ?, ordinal, row_id FROM version_entries WHERE domain = ? AND version = ?`,
      [to, domain, from],
    );
  }

  /** New rows for new or changed entries, and the version's references to them (replacing the copied ones). */
  *writeEntries(domain: string, version: number, entries: readonly Experience[]): Sql<void> {
    const inserted = yield* allMany<{ row_id: number | string; ordinal: number }>(
      `INSERT INTO experience_rows (domain, ordinal, text, status, scope, conflict_group, provenance, history,
         created_at, updated_at)`,
      ["text", "int", "text", "text", "text", "text", "text", "text", "text", "text"],
      entries.map((entry) => {
        const e = canonicalExperience(entry);
        return [
          domain,
          experienceOrdinal(e.id),
          e.text,
          e.status,
          e.scope === undefined ? null : JSON.stringify(e.scope),
          e.conflictGroup ?? null,
          JSON.stringify(e.provenance),
          JSON.stringify(e.history),
          e.createdAt,
          e.updatedAt,
        ];
      }),
      "RETURNING row_id, ordinal",
    );
    // One entry may change twice in one set: the last row wins, as in a loop of single writes.
    const latest = new Map<number, number | string>();
    for (const row of inserted) {
      const previous = latest.get(row.ordinal);
      if (previous === undefined || later(row.row_id, previous)) latest.set(row.ordinal, row.row_id);
    }
    yield* runMany(
      "INSERT INTO version_entries (domain, version, ordinal, row_id)",
      ["text", "int", "int", "bigint"],
      [...latest].map(([ordinal, rowId]) => [domain, version, ordinal, rowId]),
      "ON CONFLICT (domain, version, ordinal) DO UPDATE SET row_id = excluded.row_id",
    );
  }

  /** Sets entries' stats outright (new entries' initial stats, imported entries' recorded ones); last one wins. */
  setStats(
    domain: string,
    stats: ReadonlyArray<{ id: string; text: string; stats: Experience["stats"] }>,
  ): Sql<number> {
    const byOrdinal = new Map(stats.map((s) => [experienceOrdinal(s.id), s]));
    return runMany(
      `INSERT INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version,
         contrast_n, contrast_sum, contrast_sum_squares, contrast_text)`,
      statsTypes,
      [...byOrdinal].map(([ordinal, { text, stats: s }]) => [
        domain,
        ordinal,
        s.shown,
        s.success,
        s.sumDelta,
        s.lastUsedVersion,
        s.contrast?.n ?? 0,
        s.contrast?.sum ?? 0,
        s.contrast?.sumSquares ?? 0,
        s.contrast ? text : null,
      ]),
      `ON CONFLICT (domain, ordinal) DO UPDATE SET shown = excluded.shown, success = excluded.success,
         sum_delta = excluded.sum_delta, last_used_version = excluded.last_used_version,
         contrast_n = excluded.contrast_n, contrast_sum = excluded.contrast_sum,
         contrast_sum_squares = excluded.contrast_sum_squares, contrast_text = excluded.contrast_text`,
    );
  }

  /** The text of each given entry in a version (ordinal -> text). */
  *textsAt(domain: string, version: number, ordinals: readonly number[]): Sql<Map<number, string>> {
    const rows = yield* all<{ ordinal: number; text: string }>(
      `SELECT v.ordinal, r.text FROM version_entries v JOIN experience_rows r ON r.row_id = v.row_id
       WHERE v.domain = ? AND v.version = ? AND ${this.dialect.inList("v.ordinal", "int")}`,
      [domain, version, ordinals],
    );
    return new Map(rows.map((row) => [row.ordinal, row.text]));
  }

  finishVersion(
    domain: string,
    version: number,
    nextId: number,
    commit: boolean,
    faults: StoreFaults | undefined,
  ): Sql<number> {
    faults?.afterRows?.();
    return run(
      `UPDATE library_domains SET next_id = ?, next_version = ?,
       head_version = CASE WHEN ? THEN CAST(? AS INTEGER) ELSE head_version END WHERE domain = ?`,
      [nextId, version + 1, commit, version, domain],
    );
  }

  private entries(where: string, params: readonly unknown[]): Sql<EntryRow[]> {
    return raw<EntryRow>(`SELECT ${entryColumns} ${entryJoin} WHERE ${where} ORDER BY v.ordinal`, params);
  }
}

/** Row ids are numbers on SQLite, bigint strings on PostgreSQL. */
function later(a: number | string, b: number | string): boolean {
  return typeof a === "number" && typeof b === "number" ? a > b : BigInt(a) > BigInt(b);
}

export function toLibraryVersion(row: VersionRow): LibraryVersion {
  const where = `library_versions ${row.domain} v${row.version}`;
  return {
    domain: row.domain,
    version: row.version,
    parent: row.parent,
    ops: readStoredJson(row.ops, `${where} ops`),
    createdAt: row.created_at,
    state: row.state,
    ...(row.gate !== null ? { gate: readStoredJson<GateDecision>(row.gate, `${where} gate`) } : {}),
    runId: row.run_id,
    ...(row.message !== null ? { message: row.message } : {}),
  };
}
