import { postgresDialect, type Sql, type SqlPort, type Statement } from "../sql/sql-port.js";
import type { Sql as Client, PostgresConnection } from "./postgres-connection.js";

const numbered = new Map<string, string>();

/** `?` placeholders numbered `$1, $2, ...` (the shared SQL has no `?` of its own: no jsonb `?` operator). */
function numberPlaceholders(text: string): string {
  let out = numbered.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, out);
  }
  return out;
}

async function execute(client: Client, statement: Statement): Promise<unknown> {
  if ("insert" in statement) {
    const { types, rows } = statement;
    const columns = types.map((_, i) => rows.map((row) => row[i] ?? null));
    const unnest = types.map((type) => `?::${type}[]`).join(", ");
    const text = numberPlaceholders(`${statement.insert} SELECT * FROM unnest(${unnest}) ${statement.tail}`);
    const result = await client.query(text, columns);
    return statement.mode === "many-rows" ? result.rows : (result.rowCount ?? 0);
  }
  // No parameters: the simple query protocol, which runs several statements in one round trip.
  if (statement.mode === "script") {
    await client.query(statement.text);
    return undefined;
  }
  const text = numberPlaceholders(statement.text);
  const params = statement.params as unknown[];
  if (statement.mode === "raw") return (await client.query({ text, values: params, rowMode: "array" })).rows;
  const result = await client.query(text, params);
  if (statement.mode === "get") return result.rows[0];
  if (statement.mode === "all") return result.rows;
  return result.rowCount ?? 0;
}

export async function drive<T>(client: Client, work: Sql<T>): Promise<T> {
  let step = work.next();
  while (!step.done) {
    let result: unknown;
    try {
      result = await execute(client, step.value);
    } catch (error) {
      step = work.throw(error);
      continue;
    }
    step = work.next(result);
  }
  return step.value;
}

/**
 * The SQL port of a PostgreSQL store: statements on the pool, or on one client inside a transaction (locks taken
 * with `dialect.forUpdate`; a serialization failure or deadlock runs the work again).
 */
export function postgresPort(connection: PostgresConnection): SqlPort {
  return {
    dialect: postgresDialect,
    now: connection.now,
    run: (work) => drive(connection, work()),
    read: (work, snapshot) =>
      snapshot
        ? connection.transaction((client) => drive(client, work()), "REPEATABLE READ")
        : drive(connection, work()),
    write: (work) => connection.transaction((client) => drive(client, work())),
    groupCommit: (work) => drive(connection, work()),
  };
}
