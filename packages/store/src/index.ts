export { BaseStore } from "./base-store.js";
export { type CreateStoreOptions, createStore, parseStoreUrl, type StoreLocation } from "./create-store.js";
export {
  detectLibraryFormat,
  type LibraryEntryFields,
  type LibraryFileEntry,
  type LibraryFileProblem,
  type ParsedLibraryFile,
} from "./formats/library-file.js";
export { parseLibraryFile, renderLibrary } from "./formats/library-formats.js";
export { canonicalExperience } from "./library/canonical-experience.js";
export { diffSnapshots } from "./library/diff-snapshots.js";
export {
  experienceId,
  experienceOrdinal,
  type OperationPlan,
  planOperations,
} from "./library/plan-operations.js";
export { type OperationProblem, validateOperations } from "./library/validate-operations.js";
export { migrations } from "./sqlite/migrations.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite/sqlite-store.js";
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
  RollbackOptions,
  RunFilter,
  RunPatch,
  SetVersionStateOptions,
  StatsDelta,
  Store,
  StoreFaults,
  TrajectoryFilter,
  UsageRecord,
  UsageReport,
} from "./store.js";
