import { TfgrpoError } from "@tfgrpo/protocol";
import Database from "better-sqlite3";
import {
  type LibraryTables,
  type LibraryTablesAccess,
  rowColumns,
  statsColumns,
  versionColumns,
} from "./library-tables.js";

/**
 * Whole libraries as rows of a SQLite file (already created and migrated by `createStore`). A write is one
 * `BEGIN IMMEDIATE` transaction; the rows get ids of this file (after its highest), the references follow them.
 */
export function sqliteLibraryTables(file: string): LibraryTablesAccess {
  if (file === ":memory:") {
    throw new TfgrpoError("invalid_input", "db copy needs a database file or server, not :memory:", {
      details: { db: file },
    });
  }
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 10000");
  db.pragma("foreign_keys = ON");
  // biome-ignore lint/suspicious/noExplicitAny: rows of known tables, typed by LibraryTables where they are used
  const all = <T = any>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  return {
    where: file,
    async domains() {
      return all<{ domain: string }>("SELECT domain FROM library_domains ORDER BY domain").map(
        (r) => r.domain,
      );
    },
    async read(domain): Promise<LibraryTables> {
      return db.transaction(
        (): LibraryTables => ({
          domain: db
            .prepare(
              "SELECT domain, next_id, next_version, head_version, created_at FROM library_domains WHERE domain = ?",
            )
            .get(domain) as LibraryTables["domain"],
          versions: all(
            `SELECT ${versionColumns.join(", ")} FROM library_versions WHERE domain = ? ORDER BY version`,
            domain,
          ),
          rows: all(
            `SELECT ${rowColumns.join(", ")} FROM experience_rows WHERE domain = ? ORDER BY row_id`,
            domain,
          ),
          entries: all(
            "SELECT version, ordinal, row_id FROM version_entries WHERE domain = ? ORDER BY version, ordinal",
            domain,
          ),
          stats: all(
            `SELECT ${statsColumns.join(", ")} FROM experience_stats WHERE domain = ? ORDER BY ordinal`,
            domain,
          ),
        }),
      )();
    },
    async write(t) {
      const d = t.domain;
      db.transaction(() => {
        const offset = (
          db.prepare("SELECT coalesce(max(row_id), 0) AS m FROM experience_rows").get() as { m: number }
        ).m;
        // The head is set last: versions must exist before the domain points at one.
        db.prepare(
          "INSERT INTO library_domains (domain, next_id, next_version, head_version, created_at) VALUES (?, ?, ?, NULL, ?)",
        ).run(d.domain, d.next_id, d.next_version, d.created_at);
        const version = db.prepare(
          `INSERT INTO library_versions (domain, ${versionColumns.join(", ")}) VALUES (?${", ?".repeat(versionColumns.length)})`,
        );
        for (const v of t.versions) version.run(d.domain, ...versionColumns.map((c) => v[c]));
        const row = db.prepare(
          `INSERT INTO experience_rows (domain, ${rowColumns.join(", ")}) VALUES (?${", ?".repeat(rowColumns.length)})`,
        );
        for (const r of t.rows)
          row.run(d.domain, ...rowColumns.map((c) => (c === "row_id" ? r.row_id + offset : r[c])));
        const entry = db.prepare(
          "INSERT INTO version_entries (domain, version, ordinal, row_id) VALUES (?, ?, ?, ?)",
        );
        for (const e of t.entries) entry.run(d.domain, e.version, e.ordinal, e.row_id + offset);
        const stat = db.prepare(
          `INSERT INTO experience_stats (domain, ${statsColumns.join(", ")}) VALUES (?${", ?".repeat(statsColumns.length)})`,
        );
        for (const s of t.stats) stat.run(d.domain, ...statsColumns.map((c) => s[c]));
        db.prepare("UPDATE library_domains SET head_version = ? WHERE domain = ?").run(
          d.head_version,
          d.domain,
        );
      }).immediate();
    },
    async close() {
      db.close();
    },
  };
}
