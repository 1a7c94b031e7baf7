import { performance } from "node:perf_hooks";
import { seededRandom } from "@tfgrpo/protocol";
import { decideGate, type GateConfig } from "./acceptance-gate.js";
import type { ValidationRound } from "./sequential-gate.js";

export interface GatePowerOptions {
  /** Validation tasks. */
  tasks: number;
  /** Sequential test: the most rounds (samples per task); fixed-sample rules: the samples per task. */
  samplesPerTask: number;
  config: GateConfig;
  trials?: number;
  seed?: number;
  /**
   * Whether validation comes in rounds (default: for the sequential test). False with the sequential test: one look at
   * `samplesPerTask` samples per task (a validation whose labels pool all samples cannot be split into rounds).
   */
  inRounds?: boolean;
}

export interface GateRates {
  /** Share of trials that committed the candidate. */
  commitRate: number;
  /** Mean samples per task (rounds) a decision took. */
  meanSamplesPerTask: number;
}

/**
 * Monte Carlo of the real gate (`decideGate`, round by round for the sequential test) on a world with no prior
 * knowledge of the tasks: every task solved by the head with chance `0.5 - gain / 2` and by the candidate with
 * `0.5 + gain / 2`, independent samples. Chances near one half make every sample as noisy as it can be, so the rates
 * are what the gate can promise before any rollout (sets of easy or hard tasks and paired seeds only help).
 */
export function gateRates(gain: number, options: GatePowerOptions): GateRates {
  return runToEnd(gateRatesTrials(gain, options));
}

/** `gateRates` trial by trial: yields after each trial, so a caller can let other work run in between. */
function* gateRatesTrials(gain: number, options: GatePowerOptions): Generator<void, GateRates> {
  const trials = options.trials ?? 400;
  const random = seededRandom(options.seed ?? 23);
  const head = Math.min(1, Math.max(0, 0.5 - gain / 2));
  const candidate = Math.min(1, Math.max(0, 0.5 + gain / 2));
  const sample = (chance: number) => (random() < chance ? 1 : 0);
  const sequential = options.inRounds ?? options.config.test?.kind === "sequential";
  let commits = 0;
  let samples = 0;
  for (let trial = 0; trial < trials; trial++) {
    if (trial > 0) yield;
    if (!sequential) {
      const score = (chance: number) => {
        let sum = 0;
        for (let s = 0; s < options.samplesPerTask; s++) sum += sample(chance);
        return sum / options.samplesPerTask;
      };
      const decision = decideGate({
        candidateScores: Array.from({ length: options.tasks }, () => score(candidate)),
        headScores: Array.from({ length: options.tasks }, () => score(head)),
        stage: "full",
        config: options.config,
      });
      if (decision.decision === "commit") commits++;
      samples += options.samplesPerTask;
      continue;
    }
    const rounds: ValidationRound[] = [];
    for (let round = 1; round <= options.samplesPerTask; round++) {
      rounds.push({
        candidate: Array.from({ length: options.tasks }, () => sample(candidate)),
        head: Array.from({ length: options.tasks }, () => sample(head)),
      });
      const decision = decideGate({
        candidateScores: rounds[round - 1]!.candidate,
        headScores: rounds[round - 1]!.head,
        stage: "full",
        config: options.config,
        rounds,
        maxRounds: options.samplesPerTask,
      });
      if (decision.details?.final === false) continue;
      if (decision.decision === "commit") commits++;
      samples += round;
      break;
    }
  }
  return { commitRate: commits / trials, meanSamplesPerTask: samples / trials };
}

export interface DetectableGain {
  /** Smallest gain (mean score, 0..1, on a 0.01 grid) the gate commits at least `power` of the time; null: none. */
  gain: number | null;
  power: number;
  /** The chance of committing a candidate `harm` worse (the test's harm; 0.1 without a test). */
  lossCommitRate: number;
  loss: number;
}

/**
 * What a validation set can detect under the real rule: the smallest gain committed with probability `power`
 * (default 0.8), by bisection over `gateRates` (commit rates rise with the gain), and how often it commits a loss of
 * the test's `harm`.
 */
export function detectableGain(options: GatePowerOptions & { power?: number }): DetectableGain {
  return runToEnd(detectableGainTrials(options));
}

/**
 * `detectableGain` without holding the event loop: the same Monte Carlo (same seed, same result) in slices of about
 * `sliceMs` of CPU, with the loop free for other work (a run's first model calls) between them.
 */
export async function detectableGainInSlices(
  options: GatePowerOptions & { power?: number },
  sliceMs = 8,
): Promise<DetectableGain> {
  const trials = detectableGainTrials(options);
  let sliceStart = performance.now();
  for (;;) {
    const next = trials.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStart < sliceMs) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  }
}

function* detectableGainTrials(
  options: GatePowerOptions & { power?: number },
): Generator<void, DetectableGain> {
  const power = options.power ?? 0.8;
  const loss = options.config.test?.harm ?? 0.1;
  const lossCommitRate = (yield* gateRatesTrials(-loss, options)).commitRate;
  function* commits(hundredths: number): Generator<void, boolean> {
    return (yield* gateRatesTrials(hundredths / 100, options)).commitRate >= power;
  }
  if (!(yield* commits(100))) return { gain: null, power, lossCommitRate, loss };
  let low = -1;
  let high = 100;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (yield* commits(middle)) high = middle;
    else low = middle;
  }
  return { gain: high / 100, power, lossCommitRate, loss };
}

/** Runs a generator that only yields to let other work in, and returns what it returns. */
function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
