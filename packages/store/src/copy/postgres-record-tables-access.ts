import type { PostgresConnection } from "../postgres/postgres-connection.js";
import {
  canonicalRow,
  keyOf,
  type RecordScope,
  type RecordTable,
  type RecordTablesAccess,
} from "./record-tables.js";

function scopeClause(table: RecordTable, scope: RecordScope): { where: string; params: unknown[] } {
  if (scope === null) return { where: "", params: [] };
  if (table.scope === "domain") return { where: "WHERE domain = ANY($1::text[])", params: [scope.domains] };
  return {
    where: "WHERE run_id IN (SELECT id FROM runs WHERE domain = ANY($1::text[]))",
    params: [scope.domains],
  };
}

/**
 * The record tables of a PostgreSQL database (already migrated by `createStore`). A write is one transaction of
 * `unnest` arrays; identity columns take the copied `seq` (`OVERRIDING SYSTEM VALUE`) and then move past it.
 */
export function postgresRecordTables(connection: PostgresConnection): RecordTablesAccess {
  const columns = (table: RecordTable) => table.columns.map((c) => c.name).join(", ");
  return {
    where: connection.where,
    async read(table, scope, offset, limit) {
      const { where, params } = scopeClause(table, scope);
      const n = params.length;
      const rows = (
        await connection.query(
          `SELECT ${columns(table)} FROM ${table.name} ${where} ORDER BY ${table.key.join(", ")}
           LIMIT $${n + 1} OFFSET $${n + 2}`,
          [...params, limit, offset],
        )
      ).rows;
      return rows.map((row) => canonicalRow(table, row));
    },
    async count(table, scope) {
      const { where, params } = scopeClause(table, scope);
      return Number(
        (await connection.query(`SELECT count(*) AS n FROM ${table.name} ${where}`, params)).rows[0]!.n,
      );
    },
    async existing(table, keys) {
      if (keys.length === 0) return new Set();
      const types = table.key.map((k) => table.columns.find((c) => c.name === k)!.pgType);
      const rows = (
        await connection.query(
          `SELECT ${table.key.map((k) => `t.${k}`).join(", ")} FROM ${table.name} t
           JOIN unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(", ")}) AS k(${table.key.join(", ")})
             ON ${table.key.map((k) => `t.${k} = k.${k}`).join(" AND ")}`,
          table.key.map((k) => keys.map((row) => row[k])),
        )
      ).rows;
      return new Set(rows.map((row) => keyOf(table, canonicalRow(table, row))));
    },
    async maxSequence(table) {
      return Number(
        (await connection.query(`SELECT coalesce(max(seq), 0) AS m FROM ${table.name}`)).rows[0]!.m,
      );
    },
    async write(table, rows) {
      if (rows.length === 0) return 0;
      await connection.transaction(async (sql) => {
        await sql.query(
          `INSERT INTO ${table.name} (${columns(table)}) ${table.sequence ? "OVERRIDING SYSTEM VALUE" : ""}
           SELECT * FROM unnest(${table.columns.map((c, i) => `$${i + 1}::${c.pgType}[]`).join(", ")})`,
          table.columns.map((c) =>
            rows.map((row) => {
              const value = row[c.name] ?? null;
              return c.pgType === "bool" && value !== null ? value === 1 : value;
            }),
          ),
        );
        if (table.sequence) {
          await sql.query(
            `SELECT setval(pg_get_serial_sequence('${table.name}', 'seq'), greatest((SELECT max(seq) FROM ${table.name}), 1))`,
          );
        }
      });
      return rows.length;
    },
    async close() {},
  };
}
