export { type BusPair, busContractTests, eventually } from "./bus-contract.js";
export { makeAgentAttempt } from "./make-agent-attempt.js";
export { makeAsyncResource } from "./make-async-resource.js";
export { makeExperience } from "./make-experience.js";
export { makeTask } from "./make-task.js";
export { type CodeTrajectoryInput, makeCodeTrajectory, makeTrajectory } from "./make-trajectory.js";
export { type RealLibraryName, readRealLibrary, realLibraryFile } from "./real-libraries.js";
export { createRecordingBus, type RecordedMessage, type RecordingBus } from "./recording-bus.js";
export { renderMarkdownTable } from "./render-markdown-table.js";
export { type TemporaryDirectory, temporaryDirectory } from "./temporary-directory.js";
export {
  betaSampler,
  heterogeneousDifficulty,
  logitShiftFor,
  sampledScore,
  type TaskDifficulty,
  type VersionPairWorld,
  versionPairWorld,
} from "./version-pair-world.js";
