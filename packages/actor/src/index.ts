export {
  type ActorConfig,
  type ActorConfigInput,
  actorConfigSchema,
  type DomainConfig,
  defaultDomains,
  domainConfigFor,
  domainConfigSchema,
  parseActorConfig,
  type RetrievalConfig,
  retrievalConfigSchema,
  type ToolName,
  toolNameSchema,
} from "./actor-config.js";
export { createActorRole, type ServeActorOptions, serveActor } from "./actor-role.js";
export {
  type AssembledPrompt,
  type AssemblePromptInput,
  assemblePrompt,
  type PromptToolInfo,
} from "./assemble-prompt.js";
export {
  type Actor,
  type ActorEvent,
  type ActorModels,
  type ActorToolset,
  type ChatOptions,
  type CreateActorOptions,
  createActor,
  type PreparedPrompt,
  type RolloutOptions,
  type ToolsetContext,
  type ToolsetFactory,
} from "./create-actor.js";
export { deriveSeed } from "./derive-seed.js";
export { createDotProductKernel, type DotProductKernel } from "./dot-product-kernel.js";
export { embedLibraryEntries, type LibraryEmbeddings } from "./embed-library-entries.js";
export {
  type EnvironmentRecordLimits,
  type RecordableEnvironment,
  recordAttemptEnvironment,
  recordEnvironment,
} from "./environment-record.js";
export {
  experienceLineTokens,
  formatExperienceLine,
  learnedExperiencesHeading,
  mostUsefulHeading,
  renderExperienceBlock,
} from "./experience-block.js";
export {
  type CreateExperienceIndexOptions,
  createExperienceIndex,
  type ExperienceIndex,
  type ExperienceSelection,
  type ScoredExperience,
} from "./experience-index.js";
export { extractBoxedAnswer } from "./extract-boxed-answer.js";
export { extractCitations } from "./extract-citations.js";
export { type FormatTrajectoryOptions, formatTrajectory } from "./format-trajectory.js";
export {
  type CachedLibraryLoader,
  createBusLibraryLoader,
  createLibraryCache,
  type LibraryCacheOptions,
  type LibraryLoader,
} from "./library-cache.js";
export { createEnvironmentRedactor } from "./redact-environment-secrets.js";
export type { CallTokens } from "./rollout-recorder.js";
export { truncateText } from "./truncate-text.js";
export {
  createUserConversation,
  type UserConversation,
  type UserReply,
  userScenarioOf,
} from "./user-conversation.js";
export {
  userGreeting,
  userRolePrompt,
  userScenarioClose,
  userScenarioOpen,
  userStopToken,
} from "./user-role-prompt.js";
