import type { ExperienceContrast } from "../schemas/experience.js";
import { defaultSequenceOptions } from "./contrast-sequence.js";
import { shrunkVariance } from "./experience-contrast.js";

/*
 * The demotion test of an active entry (issue 32): a one-sided sequential probability ratio test (Wald; open-ended, a
 * test of power one) of "no harm beyond the margin" (mean contrast >= -margin) against stated harmful alternatives
 * (mean = -margin - `effect` or -margin - 2 `effect`, mixed evenly). Per group the Gaussian log likelihood ratio is (-effect x - effect^2 / 2) / s^2 with
 * x = d + margin; summed over the groups it is a nonnegative supermartingale under the null, so by Ville's inequality
 * it ever reaches ln(1 / alpha) with probability at most alpha, however often it is looked at. Against the two-sided
 * confidence sequence it spends its evidence on one direction and one effect size, so a harm near `effect` is called
 * in about half the groups. s^2 is the groups' variance shrunk towards the prior as in `contrastSequence`; the plug-in
 * makes the guarantee approximate, so the rates are measured by Monte Carlo over the real lifecycle (docs/curator.md).
 * Demotion only moves an entry to probation, where it is still varied and comes back once safe; the irreversible
 * archive keeps the stricter confidence sequence.
 */

export interface HarmTestOptions {
  /** The harmful alternative: how far below `-margin` the mean contrast is under it (mixed with twice it). */
  effect: number;
  /** Chance, over all looks together, that an entry without harm beyond the margin is ever called harmful. */
  alpha: number;
  /** Harm is a mean contrast below minus this. */
  margin: number;
  priorVariance?: number;
  priorWeight?: number;
}

export interface HarmTestResult {
  /** Log likelihood ratio of the harmful alternative against no harm (0 without groups). */
  logRatio: number;
  /** ln(1 / alpha): the ratio's threshold. */
  threshold: number;
  harmful: boolean;
}

export function harmTest(contrast: ExperienceContrast, options: HarmTestOptions): HarmTestResult {
  const threshold = Math.log(1 / options.alpha);
  const { n } = contrast;
  if (n === 0) return { logRatio: 0, threshold, harmful: false };
  const variance = shrunkVariance(contrast, {
    priorVariance: options.priorVariance ?? defaultSequenceOptions.priorVariance,
    priorWeight: options.priorWeight ?? defaultSequenceOptions.priorWeight,
  });
  const shifted = contrast.sum + n * options.margin;
  // An even mixture of the alternative and twice it (a mixture of likelihood ratios is still one, so the level holds):
  // a large harm crosses in fewer groups than against `effect` alone, at a cost of at most ln 2 near `effect`.
  const ratios = [options.effect, 2 * options.effect].map(
    (effect) => (-effect * shifted - (n * effect * effect) / 2) / variance,
  );
  const top = Math.max(...ratios);
  const logRatio =
    top + Math.log(ratios.reduce((sum, ratio) => sum + Math.exp(ratio - top), 0) / ratios.length);
  return { logRatio, threshold, harmful: logRatio >= threshold };
}
