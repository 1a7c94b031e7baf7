import type { ClientStore } from "./client-store.js";
import type { LeakageFingerprintStore } from "./leakage-fingerprint-store.js";
import type { LearnerStore } from "./learner-store.js";
import type { LibraryStore } from "./library-store.js";
import type { OutcomeStore } from "./outcome-store.js";
import type { PostgresConnection } from "./postgres/postgres-connection.js";
import type { RetentionStore } from "./retention.js";
import type { RunStore } from "./run-store.js";
import type { TrajectoryStore } from "./trajectory-store.js";

/** Opening and closing a backend: the composition root owns it; a role that is handed a store never closes it. */
export interface StoreLifecycle {
  /** Creates or migrates the schema; idempotent. */
  setup(): Promise<void>;
  close(): Promise<void>;
  /**
   * A capability, present where processes sharing the database need one: runs `fn` while holding the database-wide
   * lock `name`, so they take turns (PostgreSQL: an advisory lock). Absent on SQLite, whose file already serializes
   * its writers. Callers ask for it (`store.withLock?.(...)`), never for the backend.
   */
  withLock?<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Present on a PostgreSQL store: its connection pool, for what moves tables as they are (`db copy`) rather than
   * through the aggregates. Absent on SQLite, whose tables are read from the file.
   */
  readonly postgresConnection?: PostgresConnection;
}

/**
 * Everything a run writes goes through the store, so another backend can be added without touching the roles. It is
 * its aggregates over one backend: `LibraryStore` (experience libraries), `RunStore` (runs and their state),
 * `TrajectoryStore` (trajectories and usage), `OutcomeStore` (served selections and their outcomes),
 * `LeakageFingerprintStore` (what the curator's leakage check reads of a run's tasks), `ClientStore` (clients and
 * their exclusions), `LearnerStore` (the online learners' lease and state) and `RetentionStore` (report deadlines,
 * retention and the aggregates it leaves). A role takes the narrowest of them it
 * uses; the composition root that opens the backend holds the whole `Store`.
 * Methods are async even where the SQLite backend is synchronous: other backends will not be.
 */
export interface Store
  extends StoreLifecycle,
    LibraryStore,
    RunStore,
    TrajectoryStore,
    OutcomeStore,
    LeakageFingerprintStore,
    ClientStore,
    LearnerStore,
    RetentionStore {}
