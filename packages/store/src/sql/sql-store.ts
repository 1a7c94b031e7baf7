import { ComposedStore } from "../composed-store.js";
import { SqlClientStore } from "./sql-client-store.js";
import { SqlLeakageFingerprintStore } from "./sql-leakage-fingerprint-store.js";
import { SqlLearnerStore } from "./sql-learner-store.js";
import { SqlLibraryStore } from "./sql-library-store.js";
import { SqlOutcomeStore } from "./sql-outcome-store.js";
import type { SqlPort } from "./sql-port.js";
import { SqlRetentionStore } from "./sql-retention-store.js";
import { SqlRunStore } from "./sql-run-store.js";
import { SqlTrajectoryStore } from "./sql-trajectory-store.js";

/**
 * The aggregate stores over ONE SQL port, so they share its connection, its write lock and its statement cache: what
 * every SQL backend is. A backend gives the port and its lifecycle (`setup`, `close`).
 */
export abstract class SqlStore extends ComposedStore {
  readonly libraries: SqlLibraryStore;
  readonly runs: SqlRunStore;
  readonly trajectories: SqlTrajectoryStore;
  readonly outcomes: SqlOutcomeStore;
  readonly leakageFingerprints: SqlLeakageFingerprintStore;
  readonly clients: SqlClientStore;
  readonly learners: SqlLearnerStore;
  readonly retention: SqlRetentionStore;
  protected readonly port: SqlPort;

  protected constructor(port: SqlPort) {
    super();
    this.port = port;
    this.libraries = new SqlLibraryStore(port);
    this.runs = new SqlRunStore(port);
    this.trajectories = new SqlTrajectoryStore(port);
    this.outcomes = new SqlOutcomeStore(port, this.libraries);
    this.leakageFingerprints = new SqlLeakageFingerprintStore(port);
    this.clients = new SqlClientStore(port);
    this.learners = new SqlLearnerStore(port);
    this.retention = new SqlRetentionStore(port);
  }
}
