export type {
  Bus,
  EnqueueOptions,
  Handle,
  HandlerContext,
  Job,
  JobContext,
  JobResult,
  RequestOptions,
  WorkOptions,
} from "./bus/bus.js";
export type { BusLogger } from "./bus/bus-logger.js";
export { type CreateBusOptions, createBus } from "./bus/create-bus.js";
export { createInProcessBus } from "./bus/in-process-bus.js";
export { isRetryableJobError } from "./bus/job-retry-policy.js";
export { createNatsBus, type NatsBusOptions } from "./bus/nats-bus.js";
export {
  defineServedSubject,
  type ServedSubject,
  type ServeEvent,
  type ServeSubjectsOptions,
  serveSubjects,
} from "./bus/serve-subjects.js";
export { defineSubject, type Subject } from "./bus/subject.js";
export { type ErrorCode, errorCodes, type SerializedError, serializeError, TfgrpoError } from "./errors.js";
export { type DatasetProblem, type LoadDatasetOptions, loadDataset, parseDataset } from "./load-dataset.js";
export { mapWithConcurrency } from "./map-with-concurrency.js";
export { formatPath, formatZodIssues, type SafeParseResult, safeParseJson } from "./safe-parse-json.js";
export { type DatasetLine, datasetLineSchema } from "./schemas/dataset-line.js";
export {
  type Experience,
  type ExperienceScope,
  type ExperienceStats,
  type ExperienceStatus,
  emptyExperienceStats,
  experienceIdSchema,
  experienceSchema,
  experienceScopeSchema,
  experienceStatsSchema,
  experienceStatusSchema,
  type LifecycleEvent,
  lifecycleEventSchema,
} from "./schemas/experience.js";
export {
  type GateDecision,
  gateDecisionSchema,
  type LibraryRef,
  type LibraryVersion,
  type LibraryVersionState,
  libraryRefSchema,
  libraryVersionSchema,
  libraryVersionStateSchema,
  parseLibraryRef,
} from "./schemas/library-version.js";
export {
  type AddOperation,
  addOperationSchema,
  type DeleteOperation,
  deleteOperationSchema,
  type KeepOperation,
  keepOperationSchema,
  type MergeOperation,
  type ModifyOperation,
  mergeOperationSchema,
  modifyOperationSchema,
  type Operation,
  operationSchema,
} from "./schemas/operation.js";
export { type Run, runSchema, runStatusSchema } from "./schemas/run.js";
export { domainSchema, type Task, taskSchema } from "./schemas/task.js";
export {
  type Message,
  messageSchema,
  rewardGradeSchema,
  type StopReason,
  stopReasonSchema,
  type ToolCallRecord,
  type Trajectory,
  toolCallRecordSchema,
  trajectorySchema,
} from "./schemas/trajectory.js";
export {
  addUsage,
  emptyUsageTotals,
  type Role,
  roleSchema,
  type Usage,
  type UsageTotals,
  usageSchema,
  usageTotalsSchema,
} from "./schemas/usage.js";
export {
  actorRollout,
  conflictPairSchema,
  creditObservationSchema,
  criticGroupAdvice,
  criticReward,
  curatorConflicts,
  curatorConsolidate,
  curatorCredit,
  curatorGate,
  curatorLifecycle,
  curatorMerge,
  type ExperienceLine,
  experienceLineSchema,
  type GroupAdviceResult,
  groupAdviceRequestSchema,
  groupAdviceResultSchema,
  type LibrarySnapshot,
  libraryGet,
  librarySnapshotSchema,
  type Proposal,
  proposalSchema,
  type RewardResult,
  type RolloutRequest,
  rewardResultSchema,
  rolloutRequestSchema,
} from "./subjects.js";
