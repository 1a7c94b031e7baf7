/**
 * The small SQL port the aggregate stores are written against, once for both backends. An aggregate's work is a
 * generator of statements (`Sql<T>`): `const row = yield* get<Row>("SELECT ... WHERE id = ?", [id])`. The SQLite
 * port answers each statement synchronously inside one better-sqlite3 transaction (so nothing interleaves and
 * `BEGIN IMMEDIATE` holds the write lock throughout); the PostgreSQL port awaits each on one pooled client inside
 * its transaction, and runs the whole generator again after a serialization failure. SQL is written with `?`
 * placeholders (numbered for PostgreSQL by the port); an array parameter is one list (`inList`), a boolean a bool.
 */

/** How a statement's result is read ("script": several statements without parameters, e.g. a migration). */
export type StatementMode = "get" | "all" | "raw" | "run" | "script";

/** The PostgreSQL type of a column given to `runMany`/`allMany` (SQLite needs none). */
export type ColumnType = "text" | "int" | "bigint" | "float8" | "bool";

export type Statement =
  | { mode: StatementMode; text: string; params: readonly unknown[] }
  | {
      mode: "many" | "many-rows";
      /** `INSERT INTO t (a, b)`: the rows follow as VALUES (SQLite, one cached statement per row) or unnest. */
      insert: string;
      types: readonly ColumnType[];
      rows: readonly (readonly unknown[])[];
      /** What follows the rows: `ON CONFLICT ...`, `RETURNING ...`. */
      tail: string;
    };

/** A unit of store work: yields statements, is given their results, returns its value. */
export type Sql<T> = Generator<Statement, T, unknown>;

/** The first row, or undefined. */
export function* get<R>(text: string, params: readonly unknown[] = []): Sql<R | undefined> {
  return (yield { mode: "get", text, params }) as R | undefined;
}

/** Every row, as objects keyed by column name. */
export function* all<R>(text: string, params: readonly unknown[] = []): Sql<R[]> {
  return (yield { mode: "all", text, params }) as R[];
}

/** Every row as an array of values in column order: much faster than objects on many rows. */
export function* raw<R extends readonly unknown[]>(text: string, params: readonly unknown[] = []): Sql<R[]> {
  return (yield { mode: "raw", text, params }) as R[];
}

/** A statement run for its effect; returns how many rows it changed. */
export function* run(text: string, params: readonly unknown[] = []): Sql<number> {
  return (yield { mode: "run", text, params }) as number;
}

/** Several statements run for their effect, in order, without parameters (a schema migration). */
export function* script(text: string): Sql<void> {
  yield { mode: "script", text, params: [] };
}

/**
 * Many rows into one table: a loop of one cached statement on SQLite (cheap in process), one `unnest` statement on
 * PostgreSQL (one round trip). Returns how many rows changed. Rows must not hit the same conflict target twice.
 */
export function* runMany(
  insert: string,
  types: readonly ColumnType[],
  rows: readonly (readonly unknown[])[],
  tail = "",
): Sql<number> {
  if (rows.length === 0) return 0;
  return (yield { mode: "many", insert, types, rows, tail }) as number;
}

/** `runMany` with a `RETURNING` tail: the rows it returns. */
export function* allMany<R>(
  insert: string,
  types: readonly ColumnType[],
  rows: readonly (readonly unknown[])[],
  tail: string,
): Sql<R[]> {
  if (rows.length === 0) return [];
  return (yield { mode: "many-rows", insert, types, rows, tail }) as R[];
}

/** What differs between the dialects, as SQL fragments. */
export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /** `column IN (the array bound as one parameter)`. */
  inList(column: string, type: "text" | "int"): string;
  /** Appended to a SELECT inside a write: locks its rows on PostgreSQL (SQLite's write lock already covers them). */
  readonly forUpdate: string;
  /** Locks the rows it can and skips those another transaction holds (PostgreSQL); nothing on SQLite. */
  readonly skipLocked: string;
  /** The larger of two values (`max(a, b)` / `greatest(a, b)`). */
  greatest(a: string, b: string): string;
  /** A LIMIT that limits nothing. */
  readonly noLimit: number | null;
  /** A column the planner must not pick an index for (SQLite's unary `+`). */
  noIndex(column: string): string;
}

/** A store's connection as the aggregates see it. */
export interface SqlPort {
  readonly dialect: Dialect;
  now(): Date;
  /** Statements outside a transaction, each on its own (a lone read or a single-statement write). */
  run<T>(work: () => Sql<T>): Promise<T>;
  /**
   * Reads from one snapshot on SQLite (a read transaction). PostgreSQL reads each statement on its own, unless
   * `snapshot` asks for a REPEATABLE READ transaction (counts that must agree with each other).
   */
  read<T>(work: () => Sql<T>, snapshot?: boolean): Promise<T>;
  /** One write transaction: `BEGIN IMMEDIATE` on SQLite, a retried READ COMMITTED transaction on PostgreSQL. */
  write<T>(work: () => Sql<T>): Promise<T>;
  /**
   * A small independent write (a served selection), committed with others: on SQLite the writes of one event-loop
   * turn share one `BEGIN IMMEDIATE` transaction, each in its own savepoint, so the COMMIT is paid once per batch and
   * one that refuses (throws a TfgrpoError) fails alone; on PostgreSQL it runs on the pool outside a transaction (the
   * server commits concurrent clients in parallel). So `work` must make at most one write.
   */
  groupCommit<T>(work: () => Sql<T>): Promise<T>;
}

export const sqliteDialect: Dialect = {
  name: "sqlite",
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  forUpdate: "",
  skipLocked: "",
  greatest: (a, b) => `max(${a}, ${b})`,
  noLimit: -1,
  noIndex: (column) => `+${column}`,
};

export const postgresDialect: Dialect = {
  name: "postgres",
  inList: (column, type) => `${column} = ANY(?::${type}[])`,
  forUpdate: " FOR UPDATE",
  skipLocked: " FOR UPDATE SKIP LOCKED",
  greatest: (a, b) => `greatest(${a}, ${b})`,
  noLimit: null,
  noIndex: (column) => column,
};
