import type { ExperienceStats } from "@tfgrpo/protocol";

export interface UtilityOptions {
  kind: "ucb" | "beta";
  /** Exploration coefficient. */
  c: number;
}

/** Mean reward of the rollouts that showed the entry (rewards are in [0, 1]). */
export function successRate(stats: ExperienceStats): number {
  return stats.shown === 0 ? 0 : stats.success / stats.shown;
}

/** Mean of (rollout reward - its group's mean reward) over the rollouts that showed the entry. */
export function meanDelta(stats: ExperienceStats): number {
  if (stats.shown === 0) return 0;
  // sumDelta adds up (reward - group mean) terms whose true sum is often exactly 0 (every rollout of a group saw the
  // entry); float rounding leaves a -1e-17 that must not read as "did worse than its group".
  const mean = stats.sumDelta / stats.shown;
  return Math.abs(mean) < 1e-9 ? 0 : mean;
}

/**
 * UCB1 as in seed 002 section 2.2: p + 0.5 * avgDelta + c * sqrt(ln(N + 1) / n), infinite for an entry never shown,
 * so new entries get tried before the library settles on old favourites.
 */
export function ucbScore(stats: ExperienceStats, totalShown: number, c: number): number {
  if (stats.shown === 0) return Number.POSITIVE_INFINITY;
  const bonus = c * Math.sqrt(Math.log(totalShown + 1) / stats.shown);
  return successRate(stats) + 0.5 * meanDelta(stats) + bonus;
}

/**
 * Beta-posterior alternative: mean of Beta(1 + success, 1 + failures) plus c posterior standard deviations, which
 * shrinks towards 0.5 with little evidence instead of exploding. Rewards may be fractional; they count as fractional
 * successes.
 */
export function betaScore(stats: ExperienceStats, c: number): number {
  const alpha = 1 + stats.success;
  const beta = 1 + Math.max(0, stats.shown - stats.success);
  const total = alpha + beta;
  const mean = alpha / total;
  const sd = Math.sqrt((alpha * beta) / (total * total * (total + 1)));
  return mean + 0.5 * meanDelta(stats) + c * sd;
}

export function utilityScore(stats: ExperienceStats, totalShown: number, options: UtilityOptions): number {
  return options.kind === "beta" ? betaScore(stats, options.c) : ucbScore(stats, totalShown, options.c);
}
