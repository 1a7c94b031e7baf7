import type { ClientStore } from "./client-store.js";
import type { LeakageFingerprintStore } from "./leakage-fingerprint-store.js";
import type { LearnerStore } from "./learner-store.js";
import type { LibraryStore } from "./library-store.js";
import type { OutcomeStore } from "./outcome-store.js";
import type { RetentionStore } from "./retention.js";
import type { RunStore } from "./run-store.js";
import type { TrajectoryStore } from "./trajectory-store.js";

/** Opening and closing a backend: the composition root owns it; a role that is handed a store never closes it. */
export interface StoreLifecycle {
  /** Creates or migrates the schema; idempotent. */
  setup(): Promise<void>;
  close(): Promise<void>;
  /**
   * Present on a backend whose writers commit concurrently from several processes (PostgreSQL): runs `fn` holding the
   * database-wide lock `name`, so those processes take turns (e.g. setting up what each may create). Absent where
   * writers already take turns (SQLite's one write lock). A capability to test, instead of the backend's class.
   */
  withLock?<T>(name: string, fn: () => Promise<T>): Promise<T>;
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
