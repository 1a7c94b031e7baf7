import { z } from "zod";
import type { ExperienceContrast, ExperienceStats } from "../schemas/experience.js";

/*
 * What one lesson does, measured as a controlled contrast (DESIGN section 11). Each group where some attempts showed
 * the entry and others had it withheld gives one paired difference d = mean reward shown - mean reward withheld (the
 * same task offline, so the task's difficulty cancels). The estimate is the mean of the d's; its interval is a
 * one-sided-95% normal bound on that mean whose variance is shrunk towards a prior: with a handful of groups a sample
 * variance of 0 (every difference equal) is far more likely luck than certainty. The prior variance, 0.2, is that of
 * one difference between a 3-attempt and a 2-attempt arm of coin flips (0.25 * (1/3 + 1/2)); it weighs as
 * `priorWeight` groups. Rewards are in [0, 1], so the interval is clipped to [-1, 1].
 */

export const contrastOptionsSchema = z.object({
  z: z
    .number()
    .positive()
    .default(1.645)
    .describe("Normal quantile of each bound: 1.645 is a one-sided 95% bound (a two-sided 90% interval)"),
  priorVariance: z
    .number()
    .positive()
    .default(0.2)
    .describe("Variance of one group's difference before any evidence"),
  priorWeight: z.number().nonnegative().default(2).describe("How many groups the prior variance counts as"),
});
export type ContrastOptions = z.infer<typeof contrastOptionsSchema>;

export const defaultContrastOptions: ContrastOptions = { z: 1.645, priorVariance: 0.2, priorWeight: 2 };

export interface ContrastInterval {
  /** Groups with both arms. */
  n: number;
  /** Mean difference in reward, shown minus withheld (0 without evidence). */
  estimate: number;
  lower: number;
  upper: number;
  standardError: number;
}

export function emptyContrast(): ExperienceContrast {
  return { n: 0, sum: 0, sumSquares: 0 };
}

/** The contrast counters of some stats (none recorded yet: zeros). */
export function contrastOf(stats: ExperienceStats): ExperienceContrast {
  return stats.contrast ?? emptyContrast();
}

/** Adds one group's difference (shown minus withheld) to contrast counters. */
export function addContrast(contrast: ExperienceContrast, difference: number): ExperienceContrast {
  return {
    n: contrast.n + 1,
    sum: contrast.sum + difference,
    sumSquares: contrast.sumSquares + difference * difference,
  };
}

/**
 * The groups' variance of contrast counters (n > 0), shrunk towards `priorVariance` with the weight of `priorWeight`
 * groups: a handful of groups cannot claim a tiny spread.
 */
export function shrunkVariance(
  contrast: ExperienceContrast,
  prior: { priorVariance: number; priorWeight: number },
): number {
  const { n } = contrast;
  const mean = contrast.sum / n;
  // Sum of squared deviations, never below 0 through rounding.
  const deviations = Math.max(0, contrast.sumSquares - n * mean * mean);
  return (deviations + prior.priorWeight * prior.priorVariance) / (n - 1 + prior.priorWeight || 1);
}

/** The estimate and its interval from contrast counters. */
export function contrastEstimate(
  contrast: ExperienceContrast,
  options: ContrastOptions = defaultContrastOptions,
): ContrastInterval {
  const { n } = contrast;
  if (n === 0) return { n: 0, estimate: 0, lower: -1, upper: 1, standardError: Number.POSITIVE_INFINITY };
  const mean = contrast.sum / n;
  const variance = shrunkVariance(contrast, options);
  const standardError = Math.sqrt(variance / n);
  const clip = (value: number) => Math.min(1, Math.max(-1, value));
  return {
    n,
    estimate: mean,
    lower: clip(mean - options.z * standardError),
    upper: clip(mean + options.z * standardError),
    standardError,
  };
}

/** The estimate of an entry's stats (see `contrastEstimate`). */
export function entryContrast(
  stats: ExperienceStats,
  options: ContrastOptions = defaultContrastOptions,
): ContrastInterval {
  return contrastEstimate(contrastOf(stats), options);
}

/** A reward difference with its sign always written: "+0.240", "-0.050". */
export function formatSigned(value: number): string {
  return value >= 0 ? `+${value.toFixed(3)}` : value.toFixed(3);
}

/** The interval alone: "[+0.050, +0.430]". */
export function formatContrastBounds(interval: ContrastInterval): string {
  return `[${formatSigned(interval.lower)}, ${formatSigned(interval.upper)}]`;
}

/**
 * Which way the interval points, for displays: "helps" (lower bound above 0), "hurts" (upper bound below 0),
 * "unclear" (it straddles 0) or "none" (no contrast yet). The lifecycle's own margins decide moves, not this.
 */
export function contrastDirection(interval: ContrastInterval): "helps" | "hurts" | "unclear" | "none" {
  if (interval.n === 0) return "none";
  if (interval.lower > 0) return "helps";
  if (interval.upper < 0) return "hurts";
  return "unclear";
}

/** "+0.240 [+0.050, +0.430] over 9 groups", or "no contrast yet". */
export function formatContrast(interval: ContrastInterval): string {
  if (interval.n === 0) return "no contrast yet";
  return `${formatSigned(interval.estimate)} ${formatContrastBounds(interval)} over ${interval.n} group${interval.n === 1 ? "" : "s"}`;
}
