import { gaussian, seededRandom } from "../kernel/seeded-random.js";

/** How hard tasks are: each task's success chance under the head is drawn from Beta(a, b). */
export interface TaskDifficulty {
  a: number;
  b: number;
}

/**
 * Realistic heterogeneity: a U-shaped spread (many tasks nearly always or nearly never solved, as the per-task success
 * rates of learning runs look), mean 0.5.
 */
export const heterogeneousDifficulty: TaskDifficulty = { a: 0.8, b: 0.8 };

export interface VersionPairWorld {
  /** Per task, the head's success chance. */
  head: number[];
  /** Per task, the candidate's success chance. */
  candidate: number[];
}

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const clampProbability = (p: number) => Math.min(1 - 1e-9, Math.max(1e-9, p));

/** Gamma(shape, 1) by Marsaglia–Tsang (shape < 1 boosted). */
function gammaSample(random: () => number, normal: () => number, shape: number): number {
  if (shape < 1) return gammaSample(random, normal, shape + 1) * random() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal();
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A Beta(a, b) sampler over a uniform source. */
export function betaSampler(random: () => number, { a, b }: TaskDifficulty): () => number {
  const normal = gaussian(random);
  return () => {
    const x = gammaSample(random, normal, a);
    const y = gammaSample(random, normal, b);
    return x / (x + y);
  };
}

const shifts = new Map<string, number>();
/**
 * The logit shift that moves the mean success chance over the task population by `difference` (a lesson helps or
 * hurts most on tasks that are neither always nor never solved), found by bisection on a fixed large sample.
 */
export function logitShiftFor(difficulty: TaskDifficulty, difference: number): number {
  const key = `${difficulty.a}/${difficulty.b}/${difference}`;
  const known = shifts.get(key);
  if (known !== undefined) return known;
  const draw = betaSampler(seededRandom(99), difficulty);
  const population = Array.from({ length: 20_000 }, () => clampProbability(draw()));
  const meanShift = (beta: number) =>
    population.reduce((sum, p) => sum + sigmoid(logit(p) + beta) - p, 0) / population.length;
  let low = -20;
  let high = 20;
  for (let i = 0; i < 100; i++) {
    const middle = (low + high) / 2;
    if (meanShift(middle) < difference) low = middle;
    else high = middle;
  }
  const shift = (low + high) / 2;
  shifts.set(key, shift);
  return shift;
}

/**
 * A Monte Carlo world of two library versions on `tasks` tasks: the head's success chances from `difficulty`, the
 * candidate's the same tasks shifted on the logit scale so its population mean is `difference` away (e.g. -0.1: ten
 * points worse). The task sample itself varies from call to call, as validation sets do.
 */
export function versionPairWorld(options: {
  random: () => number;
  tasks: number;
  difference: number;
  difficulty?: TaskDifficulty;
}): VersionPairWorld {
  const difficulty = options.difficulty ?? heterogeneousDifficulty;
  const beta = logitShiftFor(difficulty, options.difference);
  const draw = betaSampler(options.random, difficulty);
  const head = Array.from({ length: options.tasks }, () => clampProbability(draw()));
  return { head, candidate: head.map((p) => sigmoid(logit(p) + beta)) };
}

/** The mean of `samples` Bernoulli(p) draws: one task's validation score. */
export function sampledScore(random: () => number, p: number, samples: number): number {
  let successes = 0;
  for (let i = 0; i < samples; i++) if (random() < p) successes++;
  return successes / samples;
}
