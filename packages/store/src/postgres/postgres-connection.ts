import { TfgrpoError } from "@tfgrpo/protocol";
import pg from "pg";

export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database` (or `postgresql://`). */
  url: string;
  now?: () => Date;
  /** Connections in the pool. Default 10. */
  poolSize?: number;
  /** How long opening a connection may take before failing. Default 10 s. */
  connectTimeoutMs?: number;
}

/** Where a statement runs: a client inside a transaction, or the pool (a lone statement). */
export interface Sql {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string | pg.QueryConfig | pg.QueryArrayConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

/** Serialization failures and deadlocks: the transaction did nothing and is safe to run again. */
const retryableCodes = new Set(["40001", "40P01"]);
const maxAttempts = 8;

/**
 * The pool the aggregate stores of a PostgreSQL store share, and its transactions. Every write is one transaction
 * that first locks the rows it depends on (a domain's row for its head and counters), so writers of one domain from
 * any number of processes serialize instead of interleaving; a serialization failure or a deadlock is retried.
 * Errors of the server (refused, wrong password, no such database, disk full) become one-line `TfgrpoError`s that
 * name the server and never the password.
 */
export class PostgresConnection implements Sql {
  readonly url: string;
  /** The URL without its password, for messages. */
  readonly where: string;
  readonly pool: pg.Pool;
  readonly now: () => Date;
  private closed = false;

  constructor(options: PostgresConnectionOptions) {
    this.url = options.url;
    this.where = redactUrl(options.url);
    this.now = options.now ?? (() => new Date());
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server drops (restart, admin) must not crash the process; the next query reconnects.
    this.pool.on("error", () => {});
  }

  /** One statement outside a transaction (a read, or a write that is a single statement). */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string | pg.QueryConfig | pg.QueryArrayConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    this.checkOpen();
    try {
      return (await this.pool.query(text as string, values)) as pg.QueryResult<R>;
    } catch (error) {
      throw this.translate(error);
    }
  }

  /**
   * `fn` in one transaction on one pooled connection: committed when it returns, rolled back when it throws, run
   * again (from the start) after a serialization failure or a deadlock.
   */
  async transaction<T>(fn: (sql: Sql) => Promise<T>, isolation = "READ COMMITTED"): Promise<T> {
    this.checkOpen();
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw this.translate(error);
      }
      let broken = false;
      try {
        await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
        const sql: Sql = {
          query: async (text, values) => (await client.query(text as string, values)) as never,
        };
        const result = await fn(sql);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        try {
          await client.query("ROLLBACK");
        } catch {
          broken = true; // The connection is gone: do not hand it back to the pool.
        }
        const code = (error as { code?: string }).code;
        if (code !== undefined && retryableCodes.has(code) && attempt < maxAttempts) {
          await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
          continue;
        }
        throw this.translate(error);
      } finally {
        client.release(broken);
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private checkOpen(): void {
    if (this.closed) {
      throw new TfgrpoError("internal", `the store at ${this.where} is not open (closed)`, {
        details: { url: this.where },
      });
    }
  }

  /** The server's error as one line naming the server (never the password); our own errors pass through. */
  translate(error: unknown): unknown {
    if (TfgrpoError.isInstance(error)) return error;
    const e = error as { code?: string; message?: string };
    const target = serverOf(this.url);
    const details = { url: this.where, code: e.code };
    switch (e.code) {
      case "ECONNREFUSED":
        return new TfgrpoError(
          "storage_error",
          `cannot reach PostgreSQL at ${target}: connection refused (is the server running? tfgrpo doctor --db URL checks it)`,
          { cause: error, details },
        );
      case "ENOTFOUND":
      case "EAI_AGAIN":
        return new TfgrpoError("storage_error", `cannot reach PostgreSQL at ${target}: unknown host`, {
          cause: error,
          details,
        });
      case "28P01":
      case "28000":
        return new TfgrpoError(
          "invalid_config",
          `PostgreSQL at ${target} refused user "${userOf(this.url)}": ${e.message}`,
          { cause: error, details },
        );
      case "3D000":
        return new TfgrpoError(
          "not_found",
          `PostgreSQL at ${target} has no database "${databaseOf(this.url)}" (create it first: createdb ${databaseOf(this.url)})`,
          { cause: error, details },
        );
      case "53100":
        return new TfgrpoError("storage_error", `${this.where}: the disk is full; nothing was written`, {
          cause: error,
          details,
        });
      case "25006":
        return new TfgrpoError(
          "storage_error",
          `${this.where}: the database is read-only; nothing was written`,
          {
            cause: error,
            details,
          },
        );
      case "57P01":
      case "57P03":
      case "08006":
      case "08001":
        return new TfgrpoError(
          "storage_error",
          `PostgreSQL at ${target} is unavailable (${e.message}); nothing was written`,
          { cause: error, details },
        );
    }
    if (e.message && /timeout exceeded when trying to connect|Connection terminated/i.test(e.message)) {
      return new TfgrpoError("storage_error", `cannot reach PostgreSQL at ${target}: ${e.message}`, {
        cause: error,
        details,
      });
    }
    return error;
  }
}

/** `postgres://user:***@host:port/db`: a URL fit for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

function serverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
}

function userOf(url: string): string {
  return decodeURIComponent(new URL(url).username) || process.env.PGUSER || "(default user)";
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
