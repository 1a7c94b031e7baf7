import { z } from "zod";
import type { ExperienceStats } from "../schemas/experience.js";
import { rewardTolerance } from "./reward-tolerance.js";

/*
 * The one experience-utility formula, used by retrieval (the actor's hybrid score and its "most useful" block) and by
 * the lifecycle (the curator's active budget), so both rank entries the same way.
 *
 * It is seed 002 section 2.2 as the curator had it: UCB1 `p + 0.5 * meanDelta + c * sqrt(ln(N + 1) / n)` (infinite for
 * an entry never shown) or, configured, a Beta posterior. The actor used to have its own score (mean group delta
 * blended with the success rate, shrunk toward 0.5, plus a bonus with c = 0.5, clamped to [0, 1]); it was not
 * clearly better, only bounded, and boundedness is all retrieval needs: `unitUtility` maps this formula's score
 * into [0, 1] monotonically, so retrieval mixes it with similarity without reordering what the lifecycle ranks.
 */

export const utilityOptionsSchema = z.object({
  kind: z
    .enum(["ucb", "beta"])
    .default("ucb")
    .describe("ucb: seed 002's UCB1; beta: Beta-posterior mean plus c posterior standard deviations"),
  /** UCB exploration coefficient (seed 002 starts at 1.2). */
  c: z
    .number()
    .min(0)
    .default(1.2)
    .describe("Exploration coefficient: how much rarely shown entries are favoured"),
});
export type UtilityOptions = z.infer<typeof utilityOptionsSchema>;

/** Seed 002's defaults: UCB1 with c = 1.2. */
export const defaultUtilityOptions: UtilityOptions = { kind: "ucb", c: 1.2 };

/** Mean reward of the rollouts that showed the entry (rewards are in [0, 1]). */
export function successRate(stats: ExperienceStats): number {
  return stats.shown === 0 ? 0 : stats.success / stats.shown;
}

/**
 * The seed's avg_delta: what showing the entry changes in reward. From the controlled contrast (mean reward shown minus
 * withheld, `experience-contrast.ts`) once there is one; before that, the mean of (rollout reward - its group's mean)
 * over the rollouts that showed it, which is 0 for everything shown to a whole group and so says nothing either way.
 */
export function meanDelta(stats: ExperienceStats): number {
  if (stats.contrast && stats.contrast.n > 0) return stats.contrast.sum / stats.contrast.n;
  if (stats.shown === 0) return 0;
  // sumDelta adds up (reward - group mean) terms whose true sum is often exactly 0 (every rollout of a group saw the
  // entry); float rounding leaves a -1e-17 that must not read as "did worse than its group".
  const mean = stats.sumDelta / stats.shown;
  return Math.abs(mean) < rewardTolerance ? 0 : mean;
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

/** An entry's utility; `totalShown` is N, the showings of every live entry of the library. */
export function utilityScore(stats: ExperienceStats, totalShown: number, options: UtilityOptions): number {
  return options.kind === "beta" ? betaScore(stats, options.c) : ucbScore(stats, totalShown, options.c);
}

/**
 * What the evidence says, without exploration: the same formula with c = 0. No evidence is neutral, 0.5 (a coin
 * flip, the Beta prior's mean), so an entry never shown is never "proven useful".
 */
export function observedUtility(stats: ExperienceStats, kind: UtilityOptions["kind"]): number {
  if (stats.shown === 0) return 0.5;
  return kind === "beta" ? betaScore(stats, 0) : ucbScore(stats, 0, 0);
}

/**
 * A utility score in [0, 1], to be mixed with a similarity. Without exploration the formula ranges over
 * [-0.5, 1.5] (p or the posterior mean in [0, 1], plus half a mean delta in [-1, 1]); that range is mapped linearly
 * onto [0, 1] (0.5 stays 0.5), an exploration bonus beyond it saturates at 1, and an entry never shown (infinite UCB)
 * gets 1, so it is tried. Monotone: it never reorders two entries, it can only tie them at the ends.
 */
export function unitUtility(score: number): number {
  if (score === Number.POSITIVE_INFINITY) return 1;
  return Math.min(Math.max((score + 0.5) / 2, 0), 1);
}
