import { TfgrpoError } from "@tfgrpo/protocol";
import Database from "better-sqlite3";
import {
  canonicalRow,
  keyOf,
  type RecordScope,
  type RecordTable,
  type RecordTablesAccess,
} from "./record-tables.js";

/** The rows of `table` in `scope`: its domain, or the runs of those domains. */
export function sqliteScopeClause(
  table: RecordTable,
  scope: RecordScope,
): { where: string; params: unknown[] } {
  if (scope === null) return { where: "", params: [] };
  const domains = JSON.stringify(scope.domains);
  if (table.scope === "domain")
    return { where: "WHERE domain IN (SELECT value FROM json_each(?))", params: [domains] };
  return {
    where: "WHERE run_id IN (SELECT id FROM runs WHERE domain IN (SELECT value FROM json_each(?)))",
    params: [domains],
  };
}

/**
 * The record tables of a SQLite file (already created and migrated by `createStore`). A write is one
 * `BEGIN IMMEDIATE` transaction; an explicit `seq` moves SQLite's own counter past it.
 */
export function sqliteRecordTables(file: string): RecordTablesAccess {
  if (file === ":memory:") {
    throw new TfgrpoError("invalid_input", "db copy needs a database file or server, not :memory:", {
      details: { db: file },
    });
  }
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 10000");
  const columns = (table: RecordTable) => table.columns.map((c) => c.name).join(", ");
  return {
    where: file,
    async read(table, scope, offset, limit) {
      const { where, params } = sqliteScopeClause(table, scope);
      const rows = db
        .prepare(
          `SELECT ${columns(table)} FROM ${table.name} ${where} ORDER BY ${table.key.join(", ")} LIMIT ? OFFSET ?`,
        )
        .all(...params, limit, offset) as Record<string, unknown>[];
      return rows.map((row) => canonicalRow(table, row));
    },
    async count(table, scope) {
      const { where, params } = sqliteScopeClause(table, scope);
      return (db.prepare(`SELECT count(*) AS n FROM ${table.name} ${where}`).get(...params) as { n: number })
        .n;
    },
    async existing(table, keys) {
      const found = new Set<string>();
      const match = table.key.map((k) => `${k} = ?`).join(" AND ");
      const lookup = db.prepare(`SELECT 1 FROM ${table.name} WHERE ${match}`);
      for (const row of keys) {
        if (lookup.get(...table.key.map((k) => row[k]))) found.add(keyOf(table, row));
      }
      return found;
    },
    async maxSequence(table) {
      return (db.prepare(`SELECT coalesce(max(seq), 0) AS m FROM ${table.name}`).get() as { m: number }).m;
    },
    async write(table, rows) {
      const insert = db.prepare(
        `INSERT INTO ${table.name} (${columns(table)}) VALUES (${table.columns.map(() => "?").join(", ")})`,
      );
      return db
        .transaction(() => {
          for (const row of rows) insert.run(...table.columns.map((c) => row[c.name]));
          return rows.length;
        })
        .immediate();
    },
    async close() {
      db.close();
    },
  };
}
