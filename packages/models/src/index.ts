export { AccountedChatOpenAI, type ChatHooks } from "./accounted-chat-openai.js";
export { type Budget, type BudgetController, createBudget } from "./budget.js";
export {
  type Cassette,
  cassetteFileName,
  type ReplayOptions,
  recordCassette,
  replayCassette,
} from "./cassette/cassette.js";
export { requestHash } from "./cassette/request-hash.js";
export {
  type Capability,
  type CapabilityResult,
  type CheckModelsOptions,
  capabilities,
  checkModels,
  type ModelsCheckReport,
  type RoleCheck,
} from "./check/check-models.js";
export { computeCostUsd, type TokenCounts } from "./compute-cost.js";
export { didYouMean, editDistance } from "./config/did-you-mean.js";
export { type InterpolationResult, interpolateEnv } from "./config/interpolate-env.js";
export {
  type LoadModelsConfigOptions,
  loadModelsConfig,
  parseModelsConfigYaml,
} from "./config/load-models-config.js";
export {
  type ModelEntry,
  type ModelEntryInput,
  type ModelsConfig,
  modelEntryDefaults,
  modelEntrySchema,
  modelsConfigFileSchema,
  type Prices,
  pricesSchema,
  providerSchema,
  type StructuredOutputMode,
  structuredOutputModeSchema,
} from "./config/models-config-schema.js";
export {
  type ConfigProblem,
  type ParseModelsConfigOptions,
  parseModelsConfig,
} from "./config/parse-models-config.js";
export {
  type ChatOverrides,
  type CompleteRequest,
  type CompleteResult,
  type CreateModelsOptions,
  createModels,
  type Models,
} from "./create-models.js";
export type { ModelsLogger } from "./models-logger.js";
export { parseRetryAfter } from "./parse-retry-after.js";
export { redactSecrets, redactValue, registerSecret } from "./redact-secrets.js";
export { type JsonRepair, type RepairJsonOptions, type RepairJsonResult, repairJson } from "./repair-json.js";
export {
  attemptsHeader,
  createRetryingFetch,
  type Fetch,
  type RetryingFetchOptions,
} from "./retrying-fetch.js";
export {
  type ChatMessage,
  type ResponseFormat,
  type StructuredAttempt,
  type StructuredRequest,
  type StructuredResult,
  structuredMessages,
  toJsonSchema,
} from "./structured-output.js";
export { toModelError } from "./to-model-error.js";
export { createUsageLedger, type UsageLedger } from "./usage-ledger.js";
