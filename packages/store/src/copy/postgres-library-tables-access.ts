import type { PostgresConnection } from "../postgres/postgres-connection.js";
import {
  type LibraryTables,
  type LibraryTablesAccess,
  rowColumns,
  statsColumns,
  versionColumns,
} from "./library-tables.js";

const batch = 5000;

/**
 * Whole libraries as rows of a PostgreSQL database (already migrated by `createStore`). A write is one transaction
 * holding the new domain's row; rows get ids after the database's highest (`OVERRIDING SYSTEM VALUE`, then the
 * identity moves past them), and go in batches of arrays, a few round trips per thousands of rows.
 */
export function postgresLibraryTables(connection: PostgresConnection): LibraryTablesAccess {
  const rows = async <T>(sql: string, params: unknown[]) => (await connection.query(sql, params)).rows as T[];
  return {
    where: connection.where,
    async domains() {
      return (await rows<{ domain: string }>("SELECT domain FROM library_domains ORDER BY domain", [])).map(
        (r) => r.domain,
      );
    },
    async read(domain) {
      // One snapshot for the whole library.
      return connection.transaction(async (sql) => {
        const get = async <T>(text: string) => (await sql.query(text, [domain])).rows as T[];
        const [d] = await get<LibraryTables["domain"]>(
          "SELECT domain, next_id, next_version, head_version, created_at FROM library_domains WHERE domain = $1",
        );
        return {
          domain: d!,
          versions: await get(
            `SELECT ${versionColumns.join(", ")} FROM library_versions WHERE domain = $1 ORDER BY version`,
          ),
          rows: (
            await get<LibraryTables["rows"][number] & { row_id: string }>(
              `SELECT ${rowColumns.join(", ")} FROM experience_rows WHERE domain = $1 ORDER BY row_id`,
            )
          ).map((r) => ({ ...r, row_id: Number(r.row_id) })),
          entries: (
            await get<{ version: number; ordinal: number; row_id: string }>(
              "SELECT version, ordinal, row_id FROM version_entries WHERE domain = $1 ORDER BY version, ordinal",
            )
          ).map((e) => ({ ...e, row_id: Number(e.row_id) })),
          stats: await get(
            `SELECT ${statsColumns.join(", ")} FROM experience_stats WHERE domain = $1 ORDER BY ordinal`,
          ),
        };
      }, "REPEATABLE READ");
    },
    async write(t) {
      const d = t.domain;
      await connection.transaction(async (sql) => {
        await sql.query("LOCK TABLE experience_rows IN SHARE ROW EXCLUSIVE MODE");
        const offset = Number(
          (await sql.query<{ m: string }>("SELECT coalesce(max(row_id), 0) AS m FROM experience_rows"))
            .rows[0]!.m,
        );
        await sql.query(
          "INSERT INTO library_domains (domain, next_id, next_version, head_version, created_at) VALUES ($1, $2, $3, NULL, $4)",
          [d.domain, d.next_id, d.next_version, d.created_at],
        );
        const insert = async <R>(
          table: string,
          columns: readonly string[],
          types: readonly string[],
          items: readonly R[],
          value: (item: R, column: string) => unknown,
          overriding = "",
        ) => {
          for (let start = 0; start < items.length; start += batch) {
            const chunk = items.slice(start, start + batch);
            await sql.query(
              `INSERT INTO ${table} (domain, ${columns.join(", ")}) ${overriding}
               SELECT $1, * FROM unnest(${types.map((type, i) => `$${i + 2}::${type}[]`).join(", ")})`,
              [d.domain, ...columns.map((c) => chunk.map((item) => value(item, c)))],
            );
          }
        };
        await insert(
          "library_versions",
          versionColumns,
          ["int", "int", "text", "text", "text", "text", "text", "int", "text", "text"],
          t.versions,
          (v, c) => v[c as keyof typeof v],
        );
        await insert(
          "experience_rows",
          rowColumns,
          ["bigint", "int", "text", "text", "text", "text", "text", "text", "text", "text"],
          t.rows,
          (r, c) => (c === "row_id" ? r.row_id + offset : r[c as keyof typeof r]),
          "OVERRIDING SYSTEM VALUE",
        );
        await sql.query(
          "SELECT setval(pg_get_serial_sequence('experience_rows', 'row_id'), greatest((SELECT max(row_id) FROM experience_rows), 1))",
        );
        await insert(
          "version_entries",
          ["version", "ordinal", "row_id"],
          ["int", "int", "bigint"],
          t.entries,
          (e, c) => (c === "row_id" ? e.row_id + offset : e[c as keyof typeof e]),
        );
        await insert(
          "experience_stats",
          statsColumns,
          ["int", "int", "float8", "float8", "int", "int", "float8", "float8", "text"],
          t.stats,
          (s, c) => s[c as keyof typeof s],
        );
        await sql.query("UPDATE library_domains SET head_version = $1 WHERE domain = $2", [
          d.head_version,
          d.domain,
        ]);
      });
    },
    async close() {},
  };
}
