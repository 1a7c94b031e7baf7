export {
  type CopiedTextFinding,
  type CopiedTextSources,
  checkCopiedInstructions,
} from "@tfgrpo/protocol";
export {
  decideGate,
  type GateConfig,
  type GateInput as GateDecisionInput,
  type GateTest,
} from "./acceptance-gate.js";
export { type ActiveBudget, fitActiveBudget } from "./active-budget.js";
export type { ConflictSummary } from "./check-conflicts.js";
export { type Chunk, type ChunkInput, chunkByPromptSize } from "./chunk-by-prompt-size.js";
export { conflictAnswerSchema, conflictCheckMessages } from "./conflict-check-prompt.js";
export type { ConsolidateInput, ConsolidateResult } from "./consolidate.js";
export {
  consolidationPrepass,
  type PrepassInput,
  type PrepassResult,
  type Suggestion,
} from "./consolidation-prepass.js";
export { consolidationAnswerSchema, consolidationMessages, experienceLine } from "./consolidation-prompt.js";
export { type CreateCuratorOptions, type Curator, createCurator } from "./create-curator.js";
export type { CreditInput, CreditResult } from "./credit.js";
export { type CreditObservation, creditDeltas, type StatsDelta } from "./credit-deltas.js";
export {
  type CuratorConfig,
  type CuratorConfigInput,
  curatorConfigSchema,
  resolveCuratorConfig,
} from "./curator-config.js";
export type { CuratorLogger, CuratorModels, CuratorStore } from "./curator-dependencies.js";
export { createCuratorRole } from "./curator-role.js";
export { type ConflictEntry, type ConflictPair, detectConflictPairs } from "./detect-conflict-pairs.js";
export type { DetectConflictsInput, DetectConflictsResult } from "./detect-conflicts.js";
export type { GateInput } from "./gate.js";
export {
  type DetectableGain,
  detectableGain,
  detectableGainInSlices,
  type GatePowerOptions,
  type GateRates,
  gateRates,
} from "./gate-power.js";
export { gateConfigFor, gateRules } from "./gate-rule.js";
export { createHashingEmbedder, type EmbedFunction, hashingEmbed } from "./hashing-embedder.js";
export {
  checkLeakage,
  createLeakageIndex,
  type LeakageFinding,
  type LeakageIndex,
} from "./leakage-check.js";
export { type LeakageSources, leakageFingerprintsOf } from "./leakage-fingerprints.js";
export { assertTransition, canTransition, lifecycleTransitions } from "./lifecycle-transitions.js";
export { limitLibraryEntries } from "./limit-library-entries.js";
export {
  type ManualAction,
  type ManualActionRules,
  manualActionOperations,
  manualActionSchema,
} from "./manual-actions.js";
export {
  type CreateManualCuratorOptions,
  createManualCurator,
  type ManualCurator,
  type ManualCuratorStore,
  type ManualRequest,
  type ManualResult,
} from "./manual-curator.js";
export type { ImportSource, MergeLibrariesInput, MergeLibrariesResult } from "./merge-libraries.js";
export { findOppositePhrasings, instructionSignatures, oppositeAction } from "./opposite-phrasings.js";
export { planConflictResolution } from "./plan-conflict-resolution.js";
export { type PlanConsolidationChunksInput, planConsolidationChunks } from "./plan-consolidation-chunks.js";
export { type LifecyclePolicy, type LifecycleTransition, planLifecycle } from "./plan-lifecycle.js";
export {
  type SequentialLook,
  type SequentialSettings,
  sequentialLook,
  sequentialVerdict,
  type ValidationRound,
} from "./sequential-gate.js";
export { createSimilarityIndex, type SimilarityIndex, type SimilarPair } from "./similarity-index.js";
export type { LifecycleOptions, LifecycleResult } from "./update-lifecycle.js";
export { isVagueLesson } from "./vague-lesson.js";
export {
  defaultValidationSamples,
  maxSequentialSamplesPerTask,
  sequentialPairedSamples,
  sequentialValidationRounds,
} from "./validation-budget.js";
export { countWords, enforceWordLimit } from "./word-limit.js";
