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
}

/**
 * Everything a run writes goes through the store, so another backend can be added without touching the roles. It is
 * four aggregates over one backend: `LibraryStore` (experience libraries), `RunStore` (runs and their state),
 * `TrajectoryStore` (trajectories and usage) and `OutcomeStore` (served selections and their outcomes). A role takes the narrowest of them it uses; the composition root that
 * opens the backend holds the whole `Store`.
 * Methods are async even where the SQLite backend is synchronous: other backends will not be.
 */
export interface Store
  extends StoreLifecycle,
    LibraryStore,
    RunStore,
    TrajectoryStore,
    OutcomeStore,
    RetentionStore {}
