import { z } from "zod";
import type { ExperienceContrast } from "../schemas/experience.js";
import { type ContrastInterval, shrunkVariance } from "./experience-contrast.js";

/*
 * A confidence sequence for one entry's contrast (issue 32, DESIGN section 13): bounds that hold at every number of
 * groups at once, so the lifecycle may look after every step and move an entry the first time a bound crosses a
 * threshold without its error rate growing with the number of looks (a fixed-n interval checked at every step would
 * cross by chance sooner or later).
 *
 * Method: the normal-mixture boundary (Robbins 1970; Howard, Ramdas et al. 2021). For differences d_i with mean mu
 * and variance proxy s^2, S_n = sum(d_i - mu) and V_n = s^2 n, the mixture martingale with an N(0, 1/rho) mixing
 * density is sqrt(rho / (V_n + rho)) exp(S_n^2 / (2 (V_n + rho))); by Ville's inequality it exceeds 1/alpha at some n
 * with probability at most alpha. So at every n at once
 *   |mean - mu| <= s sqrt((n + m) (ln(1 + n / m) + 2 ln(1 / alpha))) / n,   rho = s^2 m,
 * where m (`horizon`) is the number of groups at which the boundary is tightest. The mixture is also a Bayes factor
 * against "no difference" under a normal prior: a bound that crosses 0 is a Bayes factor above 1/alpha.
 * The variance proxy s^2 is the sample variance shrunk towards the prior variance as in `contrastEstimate` (0.2: the
 * Hoeffding proxy 1/4 (1/2 + 1/3) of a 2-against-3-attempt difference of rewards in [0, 1]); plugging in an estimate
 * makes the guarantee approximate, so the error rates are measured by Monte Carlo over the real lifecycle
 * (plan-lifecycle.mc.test.ts in @tfgrpo/curator, scripts in its bench/).
 */

export const sequenceOptionsSchema = z.object({
  alpha: z
    .number()
    .gt(0)
    .lt(0.5)
    .default(0.1)
    .describe("Chance, over all looks together, that a bound excludes the true contrast (each side)"),
  horizon: z
    .number()
    .positive()
    .default(6)
    .describe("Groups at which the boundary is tightest (the mixture's spread)"),
  priorVariance: z
    .number()
    .positive()
    .default(0.2)
    .describe("Variance of one group's difference before evidence"),
  priorWeight: z.number().nonnegative().default(2).describe("How many groups the prior variance counts as"),
});
export type SequenceOptions = z.infer<typeof sequenceOptionsSchema>;

export const defaultSequenceOptions: SequenceOptions = {
  alpha: 0.1,
  horizon: 6,
  priorVariance: 0.2,
  priorWeight: 2,
};

/** The time-uniform bounds of some contrast counters (n = 0: [-1, 1]). Clipped to [-1, 1] like rewards' differences. */
export function contrastSequence(
  contrast: ExperienceContrast,
  options: SequenceOptions = defaultSequenceOptions,
): ContrastInterval {
  const { n } = contrast;
  if (n === 0) return { n: 0, estimate: 0, lower: -1, upper: 1, standardError: Number.POSITIVE_INFINITY };
  const mean = contrast.sum / n;
  const variance = shrunkVariance(contrast, options);
  const m = options.horizon;
  const radius = Math.sqrt(variance * (n + m) * (Math.log(1 + n / m) + 2 * Math.log(1 / options.alpha))) / n;
  const clip = (value: number) => Math.min(1, Math.max(-1, value));
  return {
    n,
    estimate: mean,
    lower: clip(mean - radius),
    upper: clip(mean + radius),
    standardError: Math.sqrt(variance / n),
  };
}
