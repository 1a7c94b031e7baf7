import { sqlitePath } from "../parse-store-url.js";
import { setUpOrClose } from "../set-up-or-close.js";
import { migrateSchema } from "../sql/migrate-schema.js";
import { SqlStore } from "../sql/sql-store.js";
import { migrations } from "./migrations.js";
import { SqliteConnection, type SqliteConnectionOptions } from "./sqlite-connection.js";
import { sqlitePort } from "./sqlite-port.js";

export type SqliteStoreOptions = SqliteConnectionOptions;

/**
 * The default backend: one SQLite file per workspace (WAL, so readers never block the writer), better-sqlite3.
 * It is the aggregate stores over ONE connection, so they share one file, one write lock and one
 * prepared-statement cache; `libraries`, `runs`, `trajectories`, `outcomes` and `leakageFingerprints` are those narrow views, and the store itself
 * answers every method of `Store` by handing it to the aggregate it belongs to.
 */
export class SqliteStore extends SqlStore {
  readonly path: string;
  private readonly connection: SqliteConnection;

  /** Opens (creating if needed) and migrates the SQLite store at a `sqlite://` URL, a file path or ":memory:". */
  static async fromUrl(
    urlOrPath: string,
    options: Omit<SqliteStoreOptions, "path"> = {},
  ): Promise<SqliteStore> {
    // Only SQLite locations exist today; another backend gets its own class and its own case in createStore.
    return SqliteStore.open({ ...options, path: sqlitePath(urlOrPath) });
  }

  /** Opens (creating if needed) and migrates the SQLite store at a path; closes it again if migrating fails. */
  static async open(options: SqliteStoreOptions): Promise<SqliteStore> {
    return setUpOrClose(new SqliteStore(options));
  }

  constructor(options: SqliteStoreOptions) {
    const connection = new SqliteConnection(options);
    super(sqlitePort(connection));
    this.connection = connection;
    this.path = options.path;
  }

  async setup(): Promise<void> {
    await this.port.write(() =>
      migrateSchema(migrations, { where: this.path, details: { path: this.path }, now: this.port.now }),
    );
  }

  async close(): Promise<void> {
    this.connection.close();
  }

  /** The schema version and SQLite's integrity check, for tests and `doctor`-style commands. */
  inspect(): { schemaVersion: number; integrity: string; journalMode: string } {
    const { db } = this.connection;
    const schemaVersion = (db.prepare("SELECT max(version) AS v FROM schema_version").get() as { v: number })
      .v;
    const integrity = db.pragma("integrity_check", { simple: true }) as string;
    const journalMode = db.pragma("journal_mode", { simple: true }) as string;
    return { schemaVersion, integrity, journalMode };
  }
}
