/**
 * Samples per validation task a learning run takes by default (the runner's `--val-k`). One sample per task leaves
 * the gate a coin flip between versions a few points apart; two, with the paired test over ~30 tasks, keep the error
 * rates measured by bench/gate-error-rates.bench.ts within their targets.
 */
export const defaultValidationSamples = 2;
