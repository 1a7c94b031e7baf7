export { BaseLibraryStore } from "./base-library-store.js";
export type { ClientExclusionOptions, ClientStore, ClientSummary } from "./client-store.js";
export { type CopiedLibrary, type CopyLibrariesOptions, copyLibraries } from "./copy/copy-libraries.js";
export { type CopiedTable, type CopyRecordsOptions, copyRecords } from "./copy/copy-records.js";
export { type CreateStoreOptions, createStore } from "./create-store.js";
export {
  detectLibraryFormat,
  type LibraryEntryFields,
  type LibraryFileEntry,
  type LibraryFileProblem,
  type ParsedLibraryFile,
} from "./formats/library-file.js";
export { parseLibraryFile, renderLibrary } from "./formats/library-formats.js";
export type { LeakageFingerprintStore } from "./leakage-fingerprint-store.js";
export type {
  LearnerLease,
  LearnerRecord,
  LearnerStore,
  LeaseAttempt,
  LeaseRequest,
} from "./learner-store.js";
export { canonicalExperience } from "./library/canonical-experience.js";
export { diffSnapshots } from "./library/diff-snapshots.js";
export {
  experienceId,
  experienceOrdinal,
  type OperationPlan,
  planOperations,
} from "./library/plan-operations.js";
export { type OperationProblem, validateOperations } from "./library/validate-operations.js";
export type {
  ApplyOptions,
  ApplyResult,
  DomainSummary,
  ExperienceChange,
  ExperienceField,
  ExportOptions,
  ImportOptions,
  ImportResult,
  LibraryDiff,
  LibraryFormat,
  LibraryStore,
  RollbackOptions,
  SetVersionStateOptions,
  StatsDelta,
  StoreFaults,
  VersionContrast,
} from "./library-store.js";
export type {
  OutcomeCounts,
  OutcomeFilter,
  OutcomeReport,
  OutcomeStore,
  ReportOptions,
  ServedSelection,
  StoredOutcome,
} from "./outcome-store.js";
export {
  clientSchema,
  maxTrajectoryChars,
  parseOutcomeFilter,
  parseReport,
  parseSelection,
} from "./outcome-validation.js";
export { localDatabaseFile, parseStoreUrl, type StoreLocation, sqlitePath } from "./parse-store-url.js";
export { redactUrl } from "./postgres/postgres-connection.js";
export { PostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.js";
export {
  defaultRetentionPolicy,
  type EntryExposureAggregate,
  type ExpireOptions,
  formatDeadline,
  type OutcomeStats,
  type OutcomeStatsOptions,
  parseRetentionPolicy,
  type RetentionPolicy,
  type RetentionResult,
  type RetentionStore,
  type VersionOutcomeStats,
} from "./retention.js";
export {
  type RetentionSweep,
  type RetentionSweepOptions,
  type RetentionSweepSettings,
  retentionSettingsFromEnv,
  startRetentionFromEnv,
  startRetentionSweep,
} from "./retention-sweep.js";
export type { RunFilter, RunPatch, RunStore } from "./run-store.js";
export { type ArmReport, type ContrastSettlement, settleContrast, variedArms } from "./settle-contrast.js";
export { migrations } from "./sqlite/migrations.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite/sqlite-store.js";
export type { Store, StoreLifecycle } from "./store.js";
export {
  type CompactRunTrajectoriesOptions,
  compactedTrajectory,
  type TrajectoryCompaction,
} from "./trajectory-compaction.js";
export type { TrajectoryFilter, TrajectoryStore, UsageRecord, UsageReport } from "./trajectory-store.js";
