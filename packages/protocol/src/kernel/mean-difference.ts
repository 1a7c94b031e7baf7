import { studentTCdf, studentTQuantile } from "./student-t.js";

/**
 * How much a candidate's mean score differs from a reference's, with its uncertainty: the statistics the offline
 * acceptance gate, the online canary and the online rollback share, so that each states its error rates the same way.
 */
export interface MeanDifference {
  /** Mean of candidate - reference (paired: over tasks; two-sample: difference of the two means). */
  estimate: number;
  standardError: number;
  /** Units behind the candidate's mean: paired tasks, or candidate outcomes. */
  n: number;
  /** Units behind the reference's mean (equal to `n` when paired). */
  referenceN: number;
  degreesOfFreedom: number;
  /** One-sided level of the bounds. */
  alpha: number;
  /** One-sided (1 - alpha) lower confidence bound of the true difference. */
  lower: number;
  /** One-sided (1 - alpha) upper confidence bound of the true difference. */
  upper: number;
  /** The difference `pAbove` tests against. */
  against: number;
  /** One-sided p-value of "true difference <= against": small is evidence the difference is above `against`. */
  pAbove: number;
}

export interface MeanDifferenceOptions {
  /** One-sided level of the bounds, in (0, 0.5). */
  alpha: number;
  /** The null difference of `pAbove` (default 0). */
  against?: number;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]) => sum(values) / values.length;
/** Unbiased sample variance (0 for fewer than 2 values; callers treat that case apart). */
const variance = (values: readonly number[]) => {
  if (values.length < 2) return 0;
  const centre = mean(values);
  return sum(values.map((value) => (value - centre) ** 2)) / (values.length - 1);
};

function finish(
  estimate: number,
  standardError: number,
  degreesOfFreedom: number,
  n: number,
  referenceN: number,
  options: MeanDifferenceOptions,
): MeanDifference {
  const { alpha } = options;
  if (!(alpha > 0 && alpha < 0.5))
    throw new RangeError(`mean difference: alpha must be in (0, 0.5), got ${alpha}`);
  const against = options.against ?? 0;
  if (!(standardError > 0) || !Number.isFinite(standardError)) {
    // No spread (every difference equal) gives a point, infinite spread (too few units) gives no information.
    const known = standardError === 0;
    return {
      estimate,
      standardError,
      n,
      referenceN,
      degreesOfFreedom,
      alpha,
      lower: known ? estimate : Number.NEGATIVE_INFINITY,
      upper: known ? estimate : Number.POSITIVE_INFINITY,
      against,
      pAbove: known && estimate > against ? 0 : 1,
    };
  }
  const quantile = studentTQuantile(1 - alpha, degreesOfFreedom);
  return {
    estimate,
    standardError,
    n,
    referenceN,
    degreesOfFreedom,
    alpha,
    lower: estimate - quantile * standardError,
    upper: estimate + quantile * standardError,
    against,
    pAbove: 1 - studentTCdf((estimate - against) / standardError, degreesOfFreedom),
  };
}

/**
 * Paired over units (tasks): the one-sample t statistics of the per-unit differences candidate[i] - reference[i].
 * Pairing removes the tasks' own difficulty from the comparison, the largest source of variance between tasks.
 * Fewer than 2 pairs give infinite bounds (no evidence either way).
 */
export function pairedMeanDifference(
  candidate: readonly number[],
  reference: readonly number[],
  options: MeanDifferenceOptions,
): MeanDifference {
  if (candidate.length !== reference.length)
    throw new RangeError(
      `paired mean difference: ${candidate.length} candidate and ${reference.length} reference values`,
    );
  const n = candidate.length;
  if (n === 0) return finish(0, Number.POSITIVE_INFINITY, 0, 0, 0, options);
  const differences = candidate.map((value, index) => value - reference[index]!);
  const standardError = n < 2 ? Number.POSITIVE_INFINITY : Math.sqrt(variance(differences) / n);
  return finish(mean(differences), standardError, n - 1, n, n, options);
}

/**
 * Two independent samples (live outcomes: no task is served to both versions): Welch's t statistics of
 * mean(candidate) - mean(reference), unequal variances, Welch–Satterthwaite degrees of freedom. Either sample with
 * fewer than 2 values gives infinite bounds.
 */
export function twoSampleMeanDifference(
  candidate: readonly number[],
  reference: readonly number[],
  options: MeanDifferenceOptions,
): MeanDifference {
  const n = candidate.length;
  const m = reference.length;
  if (n < 2 || m < 2)
    return finish(
      n > 0 && m > 0 ? mean(candidate) - mean(reference) : 0,
      Number.POSITIVE_INFINITY,
      0,
      n,
      m,
      options,
    );
  const a = variance(candidate) / n;
  const b = variance(reference) / m;
  const standardError = Math.sqrt(a + b);
  const degreesOfFreedom =
    a + b === 0 ? Number.POSITIVE_INFINITY : (a + b) ** 2 / (a ** 2 / (n - 1) + b ** 2 / (m - 1));
  return finish(mean(candidate) - mean(reference), standardError, degreesOfFreedom, n, m, options);
}
