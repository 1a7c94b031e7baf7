import type Database from "better-sqlite3";
import { type Sql, type SqlPort, type Statement, sqliteDialect } from "../sql/sql-port.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { createWriteBatcher } from "./sqlite-write-batcher.js";

/** SQLite binds no arrays or booleans: a list is bound as JSON (read with json_each), a boolean as 0/1. */
function bind(params: readonly unknown[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (typeof value === "boolean" || Array.isArray(value)) {
      out ??= [...params];
      out[i] = typeof value === "boolean" ? (value ? 1 : 0) : JSON.stringify(value);
    }
  }
  return out ?? (params as unknown[]);
}

function values(count: number): string {
  return `VALUES (${Array.from({ length: count }, () => "?").join(", ")})`;
}

function execute(connection: SqliteConnection, statement: Statement): unknown {
  if ("insert" in statement) {
    const text = `${statement.insert} ${values(statement.types.length)} ${statement.tail}`;
    const prepared = connection.stmt(text);
    if (statement.mode === "many-rows")
      return statement.rows.flatMap((row) => {
        const returned = prepared.get(...bind(row));
        return returned === undefined ? [] : [returned];
      });
    let changes = 0;
    for (const row of statement.rows) changes += prepared.run(...bind(row)).changes;
    return changes;
  }
  if (statement.mode === "script") {
    connection.db.exec(statement.text);
    return undefined;
  }
  const params = bind(statement.params);
  if (statement.mode === "raw") return connection.rawStmt(statement.text).all(...params);
  const prepared: Database.Statement = connection.stmt(statement.text);
  if (statement.mode === "get") return prepared.get(...params);
  if (statement.mode === "all") return prepared.all(...params);
  return prepared.run(...params).changes;
}

/** Runs a unit of work to its end, each statement answered at once (nothing else runs on the connection meanwhile). */
export function drive<T>(connection: SqliteConnection, work: Sql<T>): T {
  let step = work.next();
  while (!step.done) {
    let result: unknown;
    try {
      result = execute(connection, step.value);
    } catch (error) {
      step = work.throw(error);
      continue;
    }
    step = work.next(result);
  }
  return step.value;
}

/** The SQL port of a SQLite store: synchronous statements on the shared connection, cached once prepared. */
export function sqlitePort(connection: SqliteConnection): SqlPort {
  const batch = createWriteBatcher(connection);
  return {
    dialect: sqliteDialect,
    now: connection.now,
    run: async (work) => drive(connection, work()),
    read: async (work) => connection.read(() => drive(connection, work())),
    write: async (work) => connection.write(() => drive(connection, work())),
    groupCommit: (work) => batch(() => drive(connection, work())),
  };
}
