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
import { readStoredJson } from "../sql/stored-json.js";
import type { SqliteConnection } from "./sqlite-connection.js";

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

const entryColumns = `r.row_id, r.ordinal, r.text, r.status, r.scope, r.conflict_group, r.provenance, r.history,
  r.created_at, r.updated_at, s.shown, s.success, s.sum_delta, s.last_used_version,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_n ELSE 0 END,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_sum ELSE 0 END,
  CASE WHEN s.contrast_text = r.text THEN s.contrast_sum_squares ELSE 0 END`;
const entryJoin = `FROM version_entries v
  JOIN experience_rows r ON r.row_id = v.row_id
  LEFT JOIN experience_stats s ON s.domain = v.domain AND s.ordinal = v.ordinal`;

/**
 * The rows behind the libraries: `library_domains` (counters and head), `library_versions`, `experience_rows`
 * (immutable entry contents, a new row only when an entry changes) and `version_entries` (each version's references
 * to its rows). The library store builds its transactions from these steps; none opens a transaction itself.
 */
export class SqliteLibraryTables {
  private readonly connection: SqliteConnection;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
  }

  domainRow(domain: string): DomainRow | undefined {
    return this.connection
      .stmt("SELECT domain, next_id, next_version, head_version FROM library_domains WHERE domain = ?")
      .get(domain) as DomainRow | undefined;
  }

  requireDomain(domain: string): DomainRow {
    const row = this.domainRow(domain);
    if (!row) throw new TfgrpoError("not_found", `no library ${domain}`, { details: { domain } });
    return row;
  }

  ensureDomain(domain: string, now: string): DomainRow {
    this.connection
      .stmt("INSERT OR IGNORE INTO library_domains (domain, created_at) VALUES (?, ?)")
      .run(domain, now);
    return this.domainRow(domain)!;
  }

  versionRow(domain: string, version: number): VersionRow | undefined {
    return this.connection
      .stmt("SELECT * FROM library_versions WHERE domain = ? AND version = ?")
      .get(domain, version) as VersionRow | undefined;
  }

  requireVersionRow(domain: string, version: number): VersionRow {
    const row = this.versionRow(domain, version);
    if (!row) {
      throw new TfgrpoError("not_found", `library ${domain} has no version ${version}`, {
        details: { domain, version },
      });
    }
    return row;
  }

  snapshot(domain: string, version: number): LibrarySnapshot {
    const rows = this.entryStmt("v.domain = ? AND v.version = ?").all(domain, version) as EntryRow[];
    return { domain, version, experiences: rows.map((row) => toExperience(domain, row)) };
  }

  loadEntries(domain: string, version: number, ids: readonly string[]): Map<string, Experience> {
    if (ids.length === 0) return new Map();
    const rows = this.entryStmt(
      "v.domain = ? AND v.version = ? AND v.ordinal IN (SELECT value FROM json_each(?))",
    ).all(domain, version, JSON.stringify(ids.map(experienceOrdinal))) as EntryRow[];
    return new Map(rows.map((row) => [experienceId(row[1]), toExperience(domain, row)]));
  }

  insertVersion(v: {
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
  }): void {
    this.connection
      .stmt(
        `INSERT INTO library_versions (domain, version, parent, state, ops, gate, run_id, message, entry_count,
         created_at, state_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
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
      );
  }

  /** The new version starts as a copy of the references of `from`: unchanged entries share their rows. */
  copyEntries(domain: string, from: number, to: number): void {
    this.connection
      .stmt(
        `INSERT INTO version_entries (domain, version, ordinal, row_id)
       SELECT domain, ?, ordinal, row_id FROM version_entries WHERE domain = ? AND version = ?`,
      )
      .run(to, domain, from);
  }

  writeEntry(domain: string, version: number, entry: Experience): void {
    const e = canonicalExperience(entry);
    const rowId = this.connection
      .stmt(
        `INSERT INTO experience_rows (domain, ordinal, text, status, scope, conflict_group, provenance, history,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
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
      ).lastInsertRowid;
    this.connection
      .stmt("INSERT OR REPLACE INTO version_entries (domain, version, ordinal, row_id) VALUES (?, ?, ?, ?)")
      .run(domain, version, experienceOrdinal(e.id), rowId);
  }

  /** Sets an entry's stats outright (a new entry's initial stats, an imported entry's recorded ones). */
  setStats(domain: string, id: string, text: string, stats: Experience["stats"]): void {
    this.connection
      .stmt(
        `INSERT OR REPLACE INTO experience_stats (domain, ordinal, shown, success, sum_delta, last_used_version,
           contrast_n, contrast_sum, contrast_sum_squares, contrast_text)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        domain,
        experienceOrdinal(id),
        stats.shown,
        stats.success,
        stats.sumDelta,
        stats.lastUsedVersion,
        stats.contrast?.n ?? 0,
        stats.contrast?.sum ?? 0,
        stats.contrast?.sumSquares ?? 0,
        stats.contrast ? text : null,
      );
  }

  /** The text of each given entry in a version (ordinal -> text). */
  textsAt(domain: string, version: number, ordinals: readonly number[]): Map<number, string> {
    const rows = this.connection
      .stmt(
        `SELECT v.ordinal, r.text FROM version_entries v JOIN experience_rows r ON r.row_id = v.row_id
         WHERE v.domain = ? AND v.version = ? AND v.ordinal IN (SELECT value FROM json_each(?))`,
      )
      .all(domain, version, JSON.stringify(ordinals)) as Array<{ ordinal: number; text: string }>;
    return new Map(rows.map((row) => [row.ordinal, row.text]));
  }

  finishVersion(
    domain: string,
    version: number,
    nextId: number,
    commit: boolean,
    faults: StoreFaults | undefined,
  ): void {
    faults?.afterRows?.();
    this.connection
      .stmt(
        `UPDATE library_domains SET next_id = ?, next_version = ?,
         head_version = CASE WHEN ? THEN ? ELSE head_version END WHERE domain = ?`,
      )
      .run(nextId, version + 1, commit ? 1 : 0, version, domain);
  }

  private entryStmt(where: string) {
    return this.connection.rawStmt(`SELECT ${entryColumns} ${entryJoin} WHERE ${where} ORDER BY v.ordinal`);
  }
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
