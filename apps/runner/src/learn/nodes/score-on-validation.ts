import { seedFrom, type Task } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { type EvaluateOptions, evaluateLibraries } from "../evaluate-libraries.js";
import { statsRevisionFor } from "./credit.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/** Validation scores of some versions on the same tasks, infrastructure failures left out. */
export interface ValidationScores {
  /**
   * Per version, each task's mean reward over its task-level samples, for the tasks every version has a task-level
   * sample of (the comparison stays paired; a task where some version only failed on the infrastructure is left out).
   */
  scores: number[][];
  /** Validation rollouts in all, and how many of them failed on the infrastructure. */
  rollouts: number;
  infrastructureFailures: number;
  /** Samples per task each version was run with. */
  samplesPerTask: number;
  /** Per version, per task (all tasks, in order), per attempt: the task-level reward, null where there is none. */
  attemptRewards: (number | null)[][][];
  /** Whether some task has no answer (then one label pools every sample, and samples cannot be taken in rounds). */
  pooledLabels: boolean;
}

/**
 * Samples per task, per version, when a validation task has no answer: its label is the majority of the pooled
 * samples of the versions compared, and fewer than 3 per version make that label mostly one version's own answer.
 */
export const minSamplesWithoutAnswers = 3;

/**
 * Each version's per-task mean reward on held-out tasks, after this step's credit (the stats at `statsRevision`),
 * with the same tasks and seeds for every version (a paired comparison). Results are keyed by library, not by step
 * (`name` + label): the head's score on the same tasks and seeds is measured once and reused. Too many
 * infrastructure failures trip the circuit breaker (the run stops, resumable).
 * Tasks are scored against their answers whenever they carry one, in learning without ground truth too (the
 * training set has no answers there, the validation set may); a task without an answer is scored against one
 * majority label of the pooled samples of all versions compared, with at least `minSamplesWithoutAnswers` each.
 */
export async function scoreOnValidation(
  deps: LearnDependencies,
  state: { step: number; statsRevision: string | null },
  tasks: readonly Task[],
  versions: readonly (number | null)[],
  name: "precheck" | "validation",
  /** Samples per task to run (default `--val-k`); earlier samples of the same tasks and seeds are reused. */
  samples = deps.options.valK,
  /** Whether this call shows its own progress (not when the rounds' sampler shows the validation's). */
  showProgress = true,
): Promise<ValidationScores> {
  const unanswered = validationNeedsPooledLabels(deps.options, tasks);
  const samplesPerTask = unanswered ? Math.max(samples, minSamplesWithoutAnswers) : samples;
  const bar = showProgress
    ? deps.progress(`step ${state.step} ${name}`)
    : { update: () => {}, done: () => {} };
  const evaluations = await evaluateLibraries({
    ...validationEvaluation(deps, state, tasks, versions, name, samplesPerTask),
    onProgress: bar.update,
  });
  bar.done();
  const scored = tasks.map((_, i) => evaluations.every((e) => e.tasks[i]!.taskLevelRewards.length > 0));
  const all = evaluations.flatMap((e) => e.tasks);
  return {
    scores: evaluations.map((e) =>
      e.tasks.filter((_, i) => scored[i]).map((t) => average(t.taskLevelRewards)),
    ),
    rollouts: all.reduce((sum, t) => sum + t.rewards.length, 0),
    infrastructureFailures: all.reduce((sum, t) => sum + t.infrastructureFailures, 0),
    samplesPerTask,
    attemptRewards: evaluations.map((e) => e.tasks.map((t) => t.attemptRewards)),
    pooledLabels: unanswered,
  };
}

/**
 * The evaluation a validation runs: every version on the same tasks and seeds, results keyed by library (so the
 * head's samples of an earlier step are found again), the circuit breaker on infrastructure failures.
 */
export function validationEvaluation(
  { bus, store, options, runId, domain, stop }: LearnDependencies,
  { step, statsRevision }: { step: number; statsRevision: string | null },
  tasks: readonly Task[],
  versions: readonly (number | null)[],
  name: "precheck" | "validation",
  samplesPerTask: number,
): EvaluateOptions {
  return {
    bus,
    store,
    runId,
    evaluationId: name,
    tasks,
    libraries: versions.map((version) => ({
      label: version === null ? "none" : `${domain}@v${version}`,
      library:
        version === null ? null : { domain, version, statsRevision: statsRevisionFor(runId, statsRevision) },
    })),
    k: samplesPerTask,
    temperature: options.evalTemperature,
    seed: seedFrom(options.seed, "validation"),
    purpose: "validate",
    mode: options.mode,
    groundTruth: options.groundTruth === "required" ? "required" : "when-answered",
    concurrency: options.concurrency,
    circuitBreaker: {
      maxRate: options.maxInfraFailureRate,
      phase: `step ${step} ${name}`,
      resume: `tfgrpo learn --resume ${runId}`,
    },
    ...stop,
  };
}

/** A validation without ground truth on a task lacking its answer scores it by one label pooled from all samples. */
export function validationNeedsPooledLabels(
  options: { groundTruth: "required" | "none" },
  tasks: readonly Task[],
): boolean {
  return options.groundTruth === "none" && tasks.some((task) => task.answer === undefined);
}
