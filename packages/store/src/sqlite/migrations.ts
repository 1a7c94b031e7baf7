import { type Migration, schemaMigrations } from "../sql/schema-migrations.js";

/** SQLite's column types: texts compare byte-wise already, booleans are 0/1, a key-only table needs no rowid. */
export const migrations: readonly Migration[] = schemaMigrations({
  sortedText: "TEXT",
  real: "REAL",
  bigint: "INTEGER",
  boolean: "INTEGER",
  false: "0",
  // An alias of the rowid: assigned as the largest so far plus one.
  rowId: "INTEGER PRIMARY KEY",
  // AUTOINCREMENT: never reuses the id of a deleted row (retention deletes outcomes; a cursor is past them).
  sequence: "INTEGER PRIMARY KEY AUTOINCREMENT",
  keyedTable: " WITHOUT ROWID",
});
