import { closeSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import Database from "better-sqlite3";

export interface SqliteConnectionOptions {
  /** A file path, or ":memory:" for a private in-memory database. */
  path: string;
  now?: () => Date;
  /** How long a writer waits for another process's write lock before failing with "conflict". Default 10 s. */
  busyTimeoutMs?: number;
  /** Fail instead of creating the file when it does not exist. */
  fileMustExist?: boolean;
}

/**
 * The one better-sqlite3 connection the aggregate stores of a SQLite store share (WAL, so readers never block the
 * writer), with its prepared-statement cache and its two kinds of transaction. Every write is one `BEGIN IMMEDIATE`
 * transaction: it takes the write lock before reading what it depends on (head, counters), so two processes writing
 * the same file serialize instead of interleaving.
 */
export class SqliteConnection {
  readonly path: string;
  readonly db: Database.Database;
  readonly now: () => Date;
  private readonly busyTimeoutMs: number;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly rawStatements = new Map<string, Database.Statement>();

  constructor(options: SqliteConnectionOptions) {
    this.path = options.path;
    this.now = options.now ?? (() => new Date());
    this.busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
    if (options.path !== ":memory:" && !options.fileMustExist) {
      mkdirSync(path.dirname(path.resolve(options.path)), { recursive: true });
    }
    try {
      this.db = new Database(options.path, { fileMustExist: options.fileMustExist ?? false });
    } catch (error) {
      throw new TfgrpoError(
        "not_found",
        `cannot open database ${options.path}: ${(error as Error).message}`,
        {
          cause: error,
          details: { path: options.path },
        },
      );
    }
    try {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
      refuseForeignDatabase(this.db, options.path);
      // Switching to WAL takes the database's write lock; while another process migrates a new file it may be
      // refused at once (SQLITE_BUSY, without the busy handler): try again until the busy timeout.
      if (options.path !== ":memory:")
        whileBusy(() => this.db.pragma("journal_mode = WAL"), this.busyTimeoutMs);
      // NORMAL is durable across application crashes in WAL mode; only an OS crash may lose the last commits.
      this.db.pragma("synchronous = NORMAL");
      this.db.pragma("foreign_keys = ON");
    } catch (error) {
      this.db.close();
      if (TfgrpoError.isInstance(error)) throw error;
      const code = (error as { code?: string }).code;
      if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT")
        throw new TfgrpoError(
          "invalid_input",
          `not a tfgrpo database: ${options.path} is not an SQLite file`,
          {
            details: { path: options.path },
          },
        );
      throw new TfgrpoError(
        "storage_error",
        `cannot open database ${options.path}: ${(error as Error).message}`,
        {
          details: { path: options.path, code },
        },
      );
    }
    if (options.path !== ":memory:") this.reservePath = `${options.path}.reserve`;
    this.keepReserve();
  }

  /**
   * A little disk kept aside beside the database (`<db>.reserve`): when a write fails because the disk is full, it is
   * released so the caller can still record what happened (a run's status), then taken again at the next open.
   */
  private readonly reservePath: string | null = null;

  private keepReserve(): void {
    if (this.reservePath === null) return;
    let fd: number;
    try {
      // Only where there is plenty of room: the reserve must never be what fills a disk.
      const free = statfsSync(path.dirname(path.resolve(this.reservePath)));
      if (free.bavail * free.bsize < 4 * reserveBytes) return;
      fd = openSync(this.reservePath, "wx");
    } catch {
      return; // Already there, or the file system cannot tell: nothing more to keep aside this time.
    }
    try {
      const chunk = Buffer.alloc(64 * 1024);
      for (let written = 0; written < reserveBytes; written += chunk.length) writeSync(fd, chunk);
      closeSync(fd);
    } catch {
      closeSync(fd);
      rmSync(this.reservePath, { force: true });
    }
  }

  private releaseReserve(): void {
    if (this.reservePath === null) return;
    rmSync(this.reservePath, { force: true });
  }

  /** A prepared statement, compiled once per connection. */
  stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A prepared statement returning rows as arrays (better-sqlite3 "raw" mode): several times faster on many rows. */
  rawStmt(sql: string): Database.Statement {
    let statement = this.rawStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).raw(true);
      this.rawStatements.set(sql, statement);
    }
    return statement;
  }

  /** One `BEGIN IMMEDIATE` transaction; a lock held too long by another process is a `conflict`. */
  write<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "SQLITE_BUSY") {
        throw new TfgrpoError(
          "conflict",
          `${this.path}: another process held the write lock for more than ${this.busyTimeoutMs} ms; try again`,
          { cause: error, details: { path: this.path } },
        );
      }
      const storage = storageProblem(code);
      if (code === "SQLITE_FULL") this.releaseReserve();
      if (storage !== null) {
        // Nothing was written (the transaction rolled back); retrying blindly would fail the same way.
        throw new TfgrpoError("storage_error", `${this.path}: ${storage}; nothing was written`, {
          cause: error,
          details: { path: this.path, code },
        });
      }
      throw error;
    }
  }

  /** One read transaction: everything `fn` reads comes from the same database snapshot. */
  read<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Another program's SQLite file is refused before anything is written into it (not even the WAL switch, which
 * rewrites the file header): a tfgrpo database has a `schema_version` table, a new one has no tables at all.
 */
function refuseForeignDatabase(db: Database.Database, file: string): void {
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  if (tables.length > 0 && !tables.includes("schema_version")) {
    throw new TfgrpoError(
      "invalid_input",
      `not a tfgrpo database: ${file} is an SQLite file with other tables (${tables.slice(0, 5).join(", ")})`,
      { details: { path: file, tables } },
    );
  }
}

const reserveBytes = 1024 * 1024;

/** What a storage failure means for the user, by SQLite's extended result code, or null for other errors. */
function storageProblem(code: string | undefined): string | null {
  if (code === undefined) return null;
  if (code === "SQLITE_FULL" || code === "SQLITE_IOERR_WRITE" || code === "SQLITE_IOERR_FSYNC") {
    return code === "SQLITE_FULL" ? "the disk is full" : "the disk is full or failing (write error)";
  }
  if (code.startsWith("SQLITE_READONLY")) return "the database is read-only";
  if (code.startsWith("SQLITE_IOERR")) return `disk I/O error (${code}): the disk may be full or failing`;
  return null;
}

/** Runs `attempt` again, 25 ms apart, while SQLite answers SQLITE_BUSY, for at most `timeoutMs`. */
function whileBusy<T>(attempt: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      // A synchronous pause: the connection is opened synchronously (better-sqlite3), so there is no turn to yield.
      Atomics.wait(pause, 0, 0, 25);
    }
  }
}
