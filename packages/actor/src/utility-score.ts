import type { ExperienceStats } from "@tfgrpo/protocol";

export interface UtilityOptions {
  /** UCB exploration constant. */
  explorationWeight: number;
  /** Share of the raw success rate in the mean (the rest is the mean group delta). */
  successWeight: number;
}

/**
 * An entry's observed usefulness in [0, 1] with no optimism: 0.5 is "no evidence either way".
 * The mean group delta (reward minus the group's mean when the entry was shown) is the main signal because it does
 * not depend on how hard the tasks were; the raw success rate is blended in a little. Shrunk toward 0.5 by one
 * pseudo-observation so one lucky rollout does not look like a proven entry.
 */
export function meanUtility(stats: ExperienceStats, successWeight: number): number {
  if (stats.shown <= 0) return 0.5;
  const meanDelta = clamp(stats.sumDelta / stats.shown, -1, 1);
  const successRate = clamp(stats.success / stats.shown, 0, 1);
  const raw = (1 - successWeight) * (0.5 + meanDelta / 2) + successWeight * successRate;
  return (raw * stats.shown + 0.5) / (stats.shown + 1);
}

/**
 * UCB1 utility in [0, 1]: mean utility plus an exploration bonus that shrinks as the entry is shown more often
 * relative to the whole library (`totalShown`). Never-shown entries get the maximum, so new entries get tried.
 */
export function ucbUtility(stats: ExperienceStats, totalShown: number, options: UtilityOptions): number {
  if (stats.shown <= 0) return 1;
  const bonus = options.explorationWeight * Math.sqrt(Math.log(totalShown + 1) / stats.shown);
  return clamp(meanUtility(stats, options.successWeight) + bonus, 0, 1);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
