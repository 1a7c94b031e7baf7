export {
  type CreateMcpServerOptions,
  createLibraryMcpServer,
  headResourceUri,
  versionResourceUri,
} from "./mcp/create-mcp-server.js";
export { type McpHttpHandle, type McpHttpOptions, serveMcpHttp, serveMcpStdio } from "./mcp/serve-mcp.js";
export { observeProbation, type Probation, type ProbationStep } from "./online/head-probation.js";
export {
  type OnlineDecisionKind,
  type OnlineDecisionRecord,
  type OnlineLearnerSnapshot,
  onlineLearnerSnapshotSchema,
  parseLearnerSnapshot,
} from "./online/learner-snapshot.js";
export { type LearnerStatus, readLearnerStatus, renderLearnerStatus } from "./online/learner-status.js";
export {
  defaultLeaseSettings,
  isLeaseLost,
  type LeasedLearnerResult,
  type LeasedLearnerStore,
  type LeaseSettings,
  type RunLeasedLearnerOptions,
  runLeasedLearner,
  toOnlineOutcome,
} from "./online/leased-learner.js";
export { cosine, type NeighbourhoodGroup, neighbourhoodGroups } from "./online/neighbourhood-groups.js";
export {
  type OnlineConfig,
  type OnlineConfigInput,
  onlineConfigSchema,
  resolveOnlineConfig,
} from "./online/online-config.js";
export { onlineCuratorConfig, onlineMinEvidence } from "./online/online-curator-config.js";
export type { OnlineDecision, OnlineDecisionRule } from "./online/online-decision.js";
export type { OnlineEvent } from "./online/online-events.js";
export { createOnlineLearner } from "./online/online-learner.js";
export type {
  CreateOnlineLearnerOptions,
  OnlineLearner,
  OnlineLearnerHistory,
  OnlineLearnerState,
} from "./online/online-learner-api.js";
export { createOnlineMetrics, type OnlineMetrics, onlineMeterName } from "./online/online-metrics.js";
export type { OnlineOutcome, SummarizeOutcome } from "./online/online-outcome.js";
export { type OnlineReflectionResult, reflectOnline } from "./online/online-reflection.js";
export {
  createReflectionTrigger,
  type ReflectionTrigger,
  type TriggerFiring,
} from "./online/reflection-trigger.js";
export { checkRollback, type RollbackCheck } from "./online/rollback-rule.js";
export {
  type ArmOutcome,
  type CanaryEvidence,
  type CanaryVerdict,
  canaryEvidence,
  decideCanary,
  fastestShare,
} from "./online/sequential-canary.js";
export { createStoredCanaryRouter, type StoredCanaryRouterOptions } from "./online/stored-canary-router.js";
export { createBusLibraryClient, type LibraryClient } from "./service/bus-library-client.js";
export {
  type ClientGate,
  type ClientGateOptions,
  createClientGate,
} from "./service/client-gate.js";
export {
  bearerToken,
  type ClientTokens,
  clientNamePattern,
  parseClientTokens,
} from "./service/client-tokens.js";
export {
  type ExplorationSlotOptions,
  type ServedSelectionPlan,
  withExplorationSlot,
} from "./service/exploration-slot.js";
export {
  type CreateLibraryServiceOptions,
  createLibraryService,
  type VersionRouter,
} from "./service/in-process-library-service.js";
export { createLibraryRole, type LibraryRoleOptions } from "./service/library-role.js";
export {
  type GetExperiencesReply,
  type GetExperiencesRequest,
  type GetLibraryRequest,
  getExperiencesReplySchema,
  getExperiencesRequestSchema,
  getLibraryRequestSchema,
  type LibraryCallContext,
  type LibraryService,
  type LibraryServiceEvent,
  type ReportOutcomeReply,
  type ReportOutcomeRequest,
  reportOutcomeReplySchema,
  reportOutcomeRequestSchema,
  type ServedExperience,
  servedExperienceSchema,
} from "./service/library-service.js";
export {
  checkRateLimit,
  createRateLimiter,
  defaultRateLimit,
  type RateLimiter,
  type RateLimitSettings,
  rateLimitMessage,
} from "./service/rate-limit.js";
export {
  createTaskStratifier,
  type TaskStratifier,
  type TaskStratifierOptions,
} from "./service/task-stratum.js";
