export { countingReport } from "./counting-report.js";
export {
  type LessonBank,
  type LessonBankHalf,
  type LessonBankName,
  lessonBankPath,
  loadBankLibrary,
  loadLessonBank,
  type PitfallLessons,
} from "./lesson-bank.js";
export { renderTrajectoryForCritic } from "./render-trajectory.js";
export {
  type EpisodeExperience,
  type EpisodeResult,
  episodeSystemPrompt,
  type RunSimEpisodeOptions,
  runSimEpisode,
} from "./run-sim-episode.js";
