export {
  fixedIntervalRule,
  type LifecycleRule,
  type LifecycleTrialResult,
  type LifecycleTrialSetting,
  lifecycleTrials,
  plannedRule,
  sequenceOnlyRule,
} from "./lifecycle-error-rates.js";
export { readRealLibrary } from "./real-libraries.js";
export {
  createScriptedModels,
  type ScriptedCall,
  type ScriptedModels,
  type ScriptedModelsOptions,
  shownExperienceIds,
  suggestedUpdates,
} from "./scripted-models.js";
export { syntheticLibrary, syntheticProposals } from "./synthetic-library.js";
