import { type Migration, schemaMigrations } from "../sql/schema-migrations.js";

/**
 * PostgreSQL's column types. Texts that are sorted on use the "C" collation, so every database orders them byte-wise
 * as SQLite does whatever its locale; times and JSON are stored as the text the store wrote (TEXT in both), so what
 * is read back (and exported) is byte-identical to what was written.
 */
export const postgresMigrations: readonly Migration[] = schemaMigrations({
  sortedText: 'TEXT COLLATE "C"',
  real: "DOUBLE PRECISION",
  bigint: "BIGINT",
  boolean: "BOOLEAN",
  false: "FALSE",
  rowId: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
  sequence: "INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
  keyedTable: "",
});
