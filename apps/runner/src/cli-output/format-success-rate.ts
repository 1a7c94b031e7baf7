import { type ExperienceStats, successRate } from "@tfgrpo/protocol";

/** An entry's success rate as a whole percent ("75%"), or "-" when it was never shown. */
export function formatSuccessRate(stats: ExperienceStats): string {
  return stats.shown === 0 ? "-" : `${Math.round(successRate(stats) * 100)}%`;
}
