import { ComposedStore } from "../composed-store.js";
import type { LeakageFingerprintStore } from "../leakage-fingerprint-store.js";
import type { LearnerStore } from "../learner-store.js";
import type { LibraryStore } from "../library-store.js";
import type { OutcomeStore } from "../outcome-store.js";
import { sqlitePath } from "../parse-store-url.js";
import type { RunStore } from "../run-store.js";
import { migrateSchema } from "../sql/migrate-schema.js";
import { SqlClientStore } from "../sql/sql-client-store.js";
import { SqlLeakageFingerprintStore } from "../sql/sql-leakage-fingerprint-store.js";
import { SqlLearnerStore } from "../sql/sql-learner-store.js";
import { SqlLibraryStore } from "../sql/sql-library-store.js";
import { SqlOutcomeStore } from "../sql/sql-outcome-store.js";
import type { SqlPort } from "../sql/sql-port.js";
import { SqlRetentionStore } from "../sql/sql-retention-store.js";
import { SqlRunStore } from "../sql/sql-run-store.js";
import { SqlTrajectoryStore } from "../sql/sql-trajectory-store.js";
import type { TrajectoryStore } from "../trajectory-store.js";
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
export class SqliteStore extends ComposedStore {
  readonly path: string;
  readonly libraries: LibraryStore;
  readonly runs: RunStore;
  readonly trajectories: TrajectoryStore;
  readonly outcomes: OutcomeStore;
  readonly leakageFingerprints: LeakageFingerprintStore;
  readonly clients: SqlClientStore;
  readonly learners: LearnerStore;
  readonly retention: SqlRetentionStore;
  private readonly connection: SqliteConnection;
  private readonly port: SqlPort;

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
    const store = new SqliteStore(options);
    try {
      await store.setup();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  constructor(options: SqliteStoreOptions) {
    super();
    this.path = options.path;
    this.connection = new SqliteConnection(options);
    this.port = sqlitePort(this.connection);
    const libraries = new SqlLibraryStore(this.port);
    this.libraries = libraries;
    this.runs = new SqlRunStore(this.port);
    this.trajectories = new SqlTrajectoryStore(this.port);
    this.outcomes = new SqlOutcomeStore(this.port, libraries);
    this.leakageFingerprints = new SqlLeakageFingerprintStore(this.port);
    this.clients = new SqlClientStore(this.port);
    this.learners = new SqlLearnerStore(this.port);
    this.retention = new SqlRetentionStore(this.port);
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
