export { renderTrajectoryForCritic } from "./render-trajectory.js";
export {
  type EpisodeExperience,
  type EpisodeResult,
  episodeSystemPrompt,
  type RunSimEpisodeOptions,
  runSimEpisode,
} from "./run-sim-episode.js";
