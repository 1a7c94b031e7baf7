export {
  type AgentAttempt,
  currentAgentAttempt,
  runAgentAttempt,
} from "./agent/agent-attempt.js";
export type { AgentEnvironment, EnvironmentTool } from "./agent/agent-environment.js";
export {
  createExperienceRuns,
  type ExperienceLibrary,
  type ExperienceRuns,
  type ExperienceRunsOptions,
  failureReport,
  type RunReport,
  type RunScope,
  type RunSelection,
  withPromptBlock,
} from "./agent/experience-runs.js";
export { type LaterOutcome, maxFinishedRuns } from "./agent/finished-runs.js";
export { type RunOutcome, type RunOutcomeLike, toRunOutcome } from "./agent/run-outcome.js";
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
export {
  type DefineRoleOptions,
  defineRole,
  type EndpointContext,
  type EndpointHandler,
  type RoleDefinition,
  type RoleEndpoints,
  type RoleHandlers,
} from "./bus/define-role.js";
export { createInProcessBus } from "./bus/in-process-bus.js";
export type { ServedSubject, ServeEvent, ServeSubjectsOptions } from "./bus/serve-subjects.js";
export {
  defineSubject,
  type ServeMode,
  type Subject,
  type SubjectInput,
  type SubjectOutput,
} from "./bus/subject.js";
export {
  type GateDecisionRule,
  gateDecisionRule,
  gateDecisionRuleSchema,
  gateDecisionRules,
} from "./contracts/gate-decision-rule.js";
export {
  type StaleParentDetails,
  staleParentDetails,
  staleParentDetailsSchema,
  staleParentOf,
} from "./contracts/stale-parent.js";
export { type ErrorCode, errorCodes, type SerializedError, serializeError, TfgrpoError } from "./errors.js";
export { billedOutputTokens, type ReportedTokens } from "./kernel/billed-output-tokens.js";
export {
  contrastSequence,
  defaultSequenceOptions,
  type SequenceOptions,
  sequenceOptionsSchema,
} from "./kernel/contrast-sequence.js";
export {
  type CopiedTextFinding,
  type CopiedTextSources,
  checkCopiedInstructions,
} from "./kernel/copied-instruction-check.js";
export {
  contrastDecision,
  type DecisionThresholds,
  decisionPriority,
  decisionThresholdsSchema,
  defaultDecisionThresholds,
  dropLevel,
  exposureShare,
} from "./kernel/decision-priority.js";
export { diffStates, pointerSegment } from "./kernel/diff-states.js";
export {
  type CreateEmbeddingCacheOptions,
  createEmbeddingCache,
  defaultEmbeddingCacheBytes,
  type EmbeddingCache,
  type EmbedFunction,
  hashText,
  normalize,
} from "./kernel/embedding-cache.js";
export { estimateTokens } from "./kernel/estimate-tokens.js";
export {
  addContrast,
  type ContrastInterval,
  type ContrastOptions,
  contrastDirection,
  contrastEstimate,
  contrastOf,
  contrastOptionsSchema,
  defaultContrastOptions,
  emptyContrast,
  entryContrast,
  formatContrast,
  formatContrastBounds,
  formatSigned,
} from "./kernel/experience-contrast.js";
export {
  betaScore,
  defaultUtilityOptions,
  meanDelta,
  observedUtility,
  successRate,
  type UtilityOptions,
  ucbScore,
  unitUtility,
  utilityOptionsSchema,
  utilityScore,
} from "./kernel/experience-utility.js";
export {
  defaultActiveExposureShare,
  defaultExposureBudget,
  defaultRelevantRatio,
  defaultRelevantShare,
  type Exposure,
  exposureSchema,
  exposureThresholds,
  inExposureBudget,
  isShownToAttempt,
  isVaried,
  minRelevantEntries,
  variationOf,
} from "./kernel/exposure-plan.js";
export { type HarmTestOptions, type HarmTestResult, harmTest } from "./kernel/harm-test.js";
export { isHomogeneousGroup } from "./kernel/homogeneous-group.js";
export {
  environmentUnavailablePrefix,
  isInfrastructureFailure,
  isSandboxUnavailable,
  type RolloutOutcome,
  sandboxUnavailablePrefix,
} from "./kernel/infrastructure-failure.js";
export { defaultLibraryBudget, type LibraryBudget } from "./kernel/library-budget.js";
export {
  type MeanDifference,
  type MeanDifferenceOptions,
  pairedMeanDifference,
  twoSampleMeanDifference,
} from "./kernel/mean-difference.js";
export { rewardTolerance } from "./kernel/reward-tolerance.js";
export { gaussian, seededRandom, seedFrom } from "./kernel/seeded-random.js";
export { normalCdf, studentTCdf, studentTQuantile } from "./kernel/student-t.js";
export { longestSharedRun, runWords } from "./kernel/word-runs.js";
export { type LinkedAbortSignal, linkAbortSignal } from "./link-abort-signal.js";
export {
  type DatasetLineContext,
  type DatasetProblem,
  datasetLineContext,
  datasetProblemsError,
  type LoadDatasetOptions,
  loadDataset,
  parseDataset,
  parseDatasetLine,
} from "./load-dataset.js";
export { mapWithConcurrency } from "./map-with-concurrency.js";
export { curatorDecide, curatorRestore } from "./online-curator-subjects.js";
export {
  readUserFile,
  readUserText,
  readUserTextSync,
  requireReadableFile,
  type UserFileOptions,
  unreadableFileReason,
} from "./read-user-file.js";
export { formatPath, formatZodIssues, type SafeParseResult, safeParseJson } from "./safe-parse-json.js";
export { type DatasetLine, datasetLineSchema } from "./schemas/dataset-line.js";
export {
  type Experience,
  type ExperienceContrast,
  type ExperienceScope,
  type ExperienceStats,
  type ExperienceStatus,
  emptyExperienceStats,
  experienceContrastSchema,
  experienceIdSchema,
  experienceSchema,
  experienceScopeSchema,
  experienceStatsSchema,
  experienceStatusSchema,
  type LifecycleEvent,
  lifecycleEventSchema,
} from "./schemas/experience.js";
export {
  type LeakageFingerprints,
  leakageFingerprintsDigestSchema,
  leakageFingerprintsSchema,
} from "./schemas/leakage-fingerprints.js";
export {
  type GateDecision,
  type GateRule,
  gateDecisionSchema,
  gateRuleSchema,
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
export {
  type ClientTokenField,
  clientTokenFieldSchema,
  type GetExperiencesReply,
  type GetExperiencesRequest,
  type GetLibraryRequest,
  getExperiencesReplySchema,
  getExperiencesRequestSchema,
  getLibraryRequestSchema,
  type ReportOutcomeReply,
  type ReportOutcomeRequest,
  reportOutcomeReplySchema,
  reportOutcomeRequestSchema,
  type ServedExperience,
  servedExperienceSchema,
} from "./schemas/served-library.js";
export { domainSchema, type Task, taskSchema } from "./schemas/task.js";
export {
  type BuiltInToolName,
  builtInToolNameSchema,
  builtInToolNames,
  isBuiltInTool,
  type ToolEntry,
  toolEntrySchema,
} from "./schemas/tool-entry.js";
export {
  type EnvironmentRecord,
  environmentRecordSchema,
  type Message,
  messageSchema,
  rewardGradeSchema,
  type StateChange,
  type StopReason,
  stateChangeSchema,
  stopReasonSchema,
  type ToolCallRecord,
  type Trajectory,
  toolCallRecordSchema,
  trajectorySchema,
} from "./schemas/trajectory.js";
export {
  addUsage,
  cacheHitRate,
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
  criticAdvantage,
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
  type LibraryVersionRef,
  libraryExperiences,
  libraryGet,
  libraryOutcome,
  librarySnapshotSchema,
  libraryVersionRefSchema,
  type Proposal,
  proposalSchema,
  type RewardResult,
  type RolloutRequest,
  rewardResultSchema,
  rolloutRequestSchema,
  type SubjectTable,
  servedLibrarySnapshot,
  subjectTable,
  trajectoryGet,
} from "./subjects.js";
export { spanAttributes } from "./tracing/span-attributes.js";
export {
  type Attributes,
  type Context,
  contextFromHeaders,
  inSpan,
  isTracing,
  markFailed,
  recordSpan,
  type Span,
  SpanKind,
  type SpanOptions,
  startSpan,
  tfgrpoTracer,
  traceHeaders,
  withContext,
} from "./tracing/tracer.js";
export { trajectoryIdentity, variedFields } from "./trajectory-identity.js";
