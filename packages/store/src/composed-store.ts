import type {
  GateDecision,
  LeakageFingerprints,
  LibrarySnapshot,
  LibraryVersion,
  Operation,
  Run,
  Trajectory,
} from "@tfgrpo/protocol";
import type { ClientExclusionOptions, ClientStore, ClientSummary } from "./client-store.js";
import type { LeakageFingerprintStore } from "./leakage-fingerprint-store.js";
import type { LearnerRecord, LearnerStore, LeaseAttempt, LeaseRequest } from "./learner-store.js";
import type {
  ApplyOptions,
  ApplyResult,
  DomainSummary,
  ExportOptions,
  ImportOptions,
  ImportResult,
  LibraryDiff,
  LibraryStore,
  RollbackOptions,
  SetVersionStateOptions,
  StatsDelta,
  VersionContrast,
} from "./library-store.js";
import type {
  OutcomeCounts,
  OutcomeFilter,
  OutcomeReport,
  OutcomeStore,
  ReportOptions,
  ServedSelection,
  StoredOutcome,
} from "./outcome-store.js";
import type {
  EntryExposureAggregate,
  ExpireOptions,
  OutcomeStats,
  OutcomeStatsOptions,
  RetentionPolicy,
  RetentionResult,
  RetentionStore,
} from "./retention.js";
import type { RunFilter, RunPatch, RunStore } from "./run-store.js";
import type { Store } from "./store.js";
import type { CompactRunTrajectoriesOptions } from "./trajectory-compaction.js";
import type { TrajectoryFilter, TrajectoryStore, UsageRecord, UsageReport } from "./trajectory-store.js";

/**
 * A `Store` made of its aggregates over one backend: every method is handed to the aggregate it belongs to.
 * A backend (SQLite, PostgreSQL) extends it with its aggregates and its lifecycle (`setup`, `close`).
 */
export abstract class ComposedStore implements Store {
  abstract readonly libraries: LibraryStore;
  abstract readonly runs: RunStore;
  abstract readonly trajectories: TrajectoryStore;
  abstract readonly outcomes: OutcomeStore;
  abstract readonly leakageFingerprints: LeakageFingerprintStore;
  abstract readonly clients: ClientStore;
  abstract readonly learners: LearnerStore;
  abstract readonly retention: RetentionStore;

  abstract setup(): Promise<void>;
  abstract close(): Promise<void>;

  // --- leakage fingerprints -------------------------------------------------------------------------------------

  putLeakageFingerprints(fingerprints: LeakageFingerprints): Promise<string> {
    return this.leakageFingerprints.putLeakageFingerprints(fingerprints);
  }

  getLeakageFingerprints(digest: string): Promise<LeakageFingerprints | null> {
    return this.leakageFingerprints.getLeakageFingerprints(digest);
  }

  // --- libraries ------------------------------------------------------------------------------------------------

  applyOperations(domain: string, ops: readonly Operation[], options: ApplyOptions): Promise<ApplyResult> {
    return this.libraries.applyOperations(domain, ops, options);
  }

  setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
    options?: SetVersionStateOptions,
  ): Promise<LibraryVersion> {
    return this.libraries.setVersionState(domain, version, state, gate, options);
  }

  getHead(domain: string): Promise<LibrarySnapshot | null> {
    return this.libraries.getHead(domain);
  }

  getHeadVersion(domain: string): Promise<number | null> {
    return this.libraries.getHeadVersion(domain);
  }

  getVersion(domain: string, version: number): Promise<LibrarySnapshot | null> {
    return this.libraries.getVersion(domain, version);
  }

  getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null> {
    return this.libraries.getVersionInfo(domain, version);
  }

  listVersions(domain: string): Promise<LibraryVersion[]> {
    return this.libraries.listVersions(domain);
  }

  listDomains(): Promise<DomainSummary[]> {
    return this.libraries.listDomains();
  }

  diff(domain: string, from: number | null, to: number | null): Promise<LibraryDiff> {
    return this.libraries.diff(domain, from, to);
  }

  rollback(domain: string, toVersion: number, options?: RollbackOptions): Promise<LibraryVersion> {
    return this.libraries.rollback(domain, toVersion, options);
  }

  updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number> {
    return this.libraries.updateStats(domain, deltas);
  }

  listVersionContrasts(domain: string, id: string): Promise<VersionContrast[]> {
    return this.libraries.listVersionContrasts(domain, id);
  }

  exportLibrary(domain: string, options: ExportOptions): Promise<string> {
    return this.libraries.exportLibrary(domain, options);
  }

  importLibrary(domain: string, options: ImportOptions): Promise<ImportResult> {
    return this.libraries.importLibrary(domain, options);
  }

  // --- runs and run state ---------------------------------------------------------------------------------------

  createRun(run: Run): Promise<Run> {
    return this.runs.createRun(run);
  }

  updateRun(id: string, patch: RunPatch): Promise<Run> {
    return this.runs.updateRun(id, patch);
  }

  getRun(id: string): Promise<Run | null> {
    return this.runs.getRun(id);
  }

  listRuns(filter?: RunFilter): Promise<Run[]> {
    return this.runs.listRuns(filter);
  }

  putRunState(runId: string, key: string, value: unknown): Promise<void> {
    return this.runs.putRunState(runId, key, value);
  }

  getRunState(runId: string, key: string): Promise<unknown> {
    return this.runs.getRunState(runId, key);
  }

  deleteRunState(runId: string, key: string): Promise<boolean> {
    return this.runs.deleteRunState(runId, key);
  }

  listRunStateKeys(runId: string): Promise<string[]> {
    return this.runs.listRunStateKeys(runId);
  }

  // --- trajectories and usage -----------------------------------------------------------------------------------

  putTrajectories(trajectories: readonly Trajectory[]): Promise<number> {
    return this.trajectories.putTrajectories(trajectories);
  }

  getTrajectory(id: string): Promise<Trajectory | null> {
    return this.trajectories.getTrajectory(id);
  }

  listTrajectories(filter: TrajectoryFilter): Promise<Trajectory[]> {
    return this.trajectories.listTrajectories(filter);
  }

  countTrajectories(filter: TrajectoryFilter): Promise<number> {
    return this.trajectories.countTrajectories(filter);
  }

  compactRunTrajectories(runId: string, options: CompactRunTrajectoriesOptions): Promise<number> {
    return this.trajectories.compactRunTrajectories(runId, options);
  }

  recordUsage(runId: string, records: readonly UsageRecord[]): Promise<number> {
    return this.trajectories.recordUsage(runId, records);
  }

  getUsageTotals(runId: string): Promise<UsageReport> {
    return this.trajectories.getUsageTotals(runId);
  }

  // --- clients ----------------------------------------------------------------------------------------------------

  listClients(domain: string): Promise<ClientSummary[]> {
    return this.clients.listClients(domain);
  }

  setClientExcluded(
    domain: string,
    client: string,
    excluded: boolean,
    options?: ClientExclusionOptions,
  ): Promise<void> {
    return this.clients.setClientExcluded(domain, client, excluded, options);
  }

  // --- served selections and outcomes ---------------------------------------------------------------------------

  recordSelection(selection: ServedSelection): Promise<void> {
    return this.outcomes.recordSelection(selection);
  }

  reportOutcome(report: OutcomeReport, options?: ReportOptions): Promise<StoredOutcome> {
    return this.outcomes.reportOutcome(report, options);
  }

  getSelection(
    selectionId: string,
  ): Promise<{ selection: ServedSelection; outcome: StoredOutcome | null } | null> {
    return this.outcomes.getSelection(selectionId);
  }

  listOutcomes(filter: OutcomeFilter): Promise<StoredOutcome[]> {
    return this.outcomes.listOutcomes(filter);
  }

  markConsumed(
    domain: string,
    selectionIds: readonly string[],
    reflectionId: string,
    options?: ReportOptions,
  ): Promise<number> {
    return this.outcomes.markConsumed(domain, selectionIds, reflectionId, options);
  }

  countOutcomes(domain: string): Promise<OutcomeCounts> {
    return this.outcomes.countOutcomes(domain);
  }

  // --- online learners: lease, state, pause ---------------------------------------------------------------------

  acquireLearnerLease(domain: string, request: LeaseRequest): Promise<LeaseAttempt> {
    return this.learners.acquireLearnerLease(domain, request);
  }

  renewLearnerLease(domain: string, holder: string, ttlMs: number, now?: Date): Promise<boolean> {
    return this.learners.renewLearnerLease(domain, holder, ttlMs, now);
  }

  releaseLearnerLease(domain: string, holder: string, now?: Date): Promise<void> {
    return this.learners.releaseLearnerLease(domain, holder, now);
  }

  saveLearnerState(
    domain: string,
    holder: string,
    state: Record<string, unknown>,
    now?: Date,
  ): Promise<void> {
    return this.learners.saveLearnerState(domain, holder, state, now);
  }

  getLearner(domain: string): Promise<LearnerRecord | null> {
    return this.learners.getLearner(domain);
  }

  listLearners(): Promise<LearnerRecord[]> {
    return this.learners.listLearners();
  }

  setLearnerPaused(domain: string, paused: boolean, now?: Date): Promise<LearnerRecord> {
    return this.learners.setLearnerPaused(domain, paused, now);
  }

  // --- report deadlines and retention ---------------------------------------------------------------------------

  expireSelections(options?: ExpireOptions): Promise<number> {
    return this.retention.expireSelections(options);
  }

  applyRetention(policy: Partial<RetentionPolicy>, now?: Date): Promise<RetentionResult> {
    return this.retention.applyRetention(policy, now);
  }

  outcomeStats(domain: string, options?: OutcomeStatsOptions): Promise<OutcomeStats> {
    return this.retention.outcomeStats(domain, options);
  }

  listEntryExposure(domain: string): Promise<EntryExposureAggregate[]> {
    return this.retention.listEntryExposure(domain);
  }
}
