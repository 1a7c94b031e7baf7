import { TfgrpoError } from "@tfgrpo/protocol";
import { setUpOrClose } from "../set-up-or-close.js";
import { migrateSchema } from "../sql/migrate-schema.js";
import { all, get } from "../sql/sql-port.js";
import { SqlStore } from "../sql/sql-store.js";
import { PostgresConnection, type PostgresConnectionOptions } from "./postgres-connection.js";
import { postgresMigrations } from "./postgres-migrations.js";
import { postgresPort } from "./postgres-port.js";

export type PostgresStoreOptions = PostgresConnectionOptions;

/** Any fixed number: the advisory lock that makes concurrent `setup()`s of one database take turns. */
const migrationLock = 7_470_112;

/** The tables of langgraph's PostgreSQL checkpointer, which may share the database. */
const checkpointTables = new Set([
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "checkpoint_migrations",
]);

/**
 * The server backend (`postgres://…`): what several runners, curators and machines share. The aggregate stores
 * over one connection pool; every write is one transaction, writers of a library serialize on its domain row.
 */
export class PostgresStore extends SqlStore {
  readonly url: string;
  readonly connection: PostgresConnection;

  /** The `StoreLifecycle` capability `db copy` reads and writes tables through. */
  get postgresConnection(): PostgresConnection {
    return this.connection;
  }

  /** Connects and migrates; the pool is closed again if that fails (a wrong password, a missing database, ...). */
  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    return setUpOrClose(new PostgresStore(options));
  }

  constructor(options: PostgresStoreOptions) {
    const connection = new PostgresConnection(options);
    super(postgresPort(connection));
    this.connection = connection;
    this.url = connection.where;
  }

  async setup(): Promise<void> {
    const { url } = this;
    const now = this.port.now;
    await this.port.write(function* () {
      yield* get("SELECT pg_advisory_xact_lock(?)", [migrationLock]);
      const tables = (yield* all<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = current_schema() ORDER BY table_name`,
      )).map((r) => r.name);
      const foreign = tables.filter((name) => !checkpointTables.has(name));
      if (foreign.length > 0 && !tables.includes("schema_version")) {
        throw new TfgrpoError(
          "invalid_input",
          `not a tfgrpo database: ${url} has other tables (${foreign.slice(0, 5).join(", ")})`,
          { details: { url, tables: foreign } },
        );
      }
      yield* migrateSchema(postgresMigrations, { where: url, details: { url }, now });
    });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /**
   * Runs `fn` while holding the database-wide lock `name` (a transaction-level advisory lock): processes sharing the
   * database take turns, e.g. to set up what several of them may create at once.
   */
  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.connection.transaction(async (sql) => {
      await sql.query("SELECT pg_advisory_xact_lock(hashtext($1))", [name]);
      return fn();
    });
  }

  /** The schema version, for tests and `doctor`-style commands. */
  async inspect(): Promise<{ schemaVersion: number; serverVersion: string }> {
    const row = (
      await this.connection.query<{ v: number; server: string }>(
        "SELECT (SELECT max(version) FROM schema_version) AS v, current_setting('server_version') AS server",
      )
    ).rows[0]!;
    return { schemaVersion: row.v, serverVersion: row.server };
  }
}
