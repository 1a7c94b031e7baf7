import { seededRandom } from "@tfgrpo/protocol";

export interface ConfidenceInterval {
  estimate: number;
  low: number;
  high: number;
  level: number;
}

/**
 * Percentile bootstrap over tasks: resample the per-task values with replacement and take the mean each time.
 * Tasks, not samples, are the unit, so k samples of one task cannot make a small test set look large.
 */
export function bootstrapMean(
  values: readonly number[],
  options: { resamples?: number; level?: number; seed?: number } = {},
): ConfidenceInterval {
  const { resamples = 2000, level = 0.95, seed = 1 } = options;
  if (values.length === 0) throw new RangeError("bootstrapMean needs at least one value");
  const estimate = mean(values);
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  const n = values.length;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means[r] = sum / n;
  }
  means.sort();
  const alpha = (1 - level) / 2;
  return { estimate, low: quantile(means, alpha), high: quantile(means, 1 - alpha), level };
}

/**
 * Paired bootstrap of the difference between two systems measured on the same tasks (b - a): the interval that says
 * whether a library really beats another, not just whether their separate intervals overlap.
 */
export function bootstrapPairedDifference(
  a: readonly number[],
  b: readonly number[],
  options: { resamples?: number; level?: number; seed?: number } = {},
): ConfidenceInterval {
  if (a.length !== b.length)
    throw new RangeError(`paired bootstrap needs equal lengths (got ${a.length} and ${b.length})`);
  return bootstrapMean(
    a.map((value, i) => b[i]! - value),
    options,
  );
}

/**
 * Bootstrap of the difference of two means measured on different tasks (b - a), resampling each side on its own:
 * e.g. the first and the last tasks of a stream served while learning, which share no task to pair on.
 */
export function bootstrapDifference(
  a: readonly number[],
  b: readonly number[],
  options: { resamples?: number; level?: number; seed?: number } = {},
): ConfidenceInterval {
  const { resamples = 2000, level = 0.95, seed = 1 } = options;
  if (a.length === 0 || b.length === 0)
    throw new RangeError("bootstrapDifference needs values on both sides");
  const random = seededRandom(seed);
  const resampledMean = (values: readonly number[]) => {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)]!;
    return sum / values.length;
  };
  const differences = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) differences[r] = resampledMean(b) - resampledMean(a);
  differences.sort();
  const alpha = (1 - level) / 2;
  return {
    estimate: mean(b) - mean(a),
    low: quantile(differences, alpha),
    high: quantile(differences, 1 - alpha),
    level,
  };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function quantile(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const weight = position - lower;
  return sorted[lower]! * (1 - weight) + sorted[upper]! * weight;
}
