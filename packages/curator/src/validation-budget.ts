/**
 * Samples per validation task of the fixed-sample rules (`--gate paired-t` and `--gate paper`, the runner's
 * `--val-k`). One sample per task leaves the gate a coin flip between versions a few points apart; two, with the
 * paired test over ~30 tasks, keep the error rates measured by bench/gate-error-rates.bench.ts within their targets.
 */
export const defaultValidationSamples = 2;

/**
 * The sequential gate's budget: paired samples (tasks x rounds) it may take before an open test rejects. About 120
 * give a candidate 10 points better at least an 80% chance to commit (bench/gate-error-rates.bench.ts); decisions on
 * large effects stop long before.
 */
export const sequentialPairedSamples = 120;

/** The most samples per task (rounds) the sequential gate takes, however small the validation set. */
export const maxSequentialSamplesPerTask = 32;

/**
 * Rounds (samples per task) the sequential gate may take on `tasks` validation tasks: enough for
 * `sequentialPairedSamples` paired samples, at least 2, at most `cap` (default `maxSequentialSamplesPerTask`).
 * A small set gets more seeds per task: the gate's hypotheses are about the mean over the set's own tasks, which
 * more samples of the same tasks do pin down.
 */
export function sequentialValidationRounds(tasks: number, cap = maxSequentialSamplesPerTask): number {
  if (!Number.isInteger(tasks) || tasks < 1) return 1;
  return Math.max(1, Math.min(cap, Math.max(2, Math.ceil(sequentialPairedSamples / tasks))));
}
