import { type Bus, mapWithConcurrency, type RolloutRequest, seedFrom, type Task } from "@tfgrpo/protocol";
import type { RunStore, TrajectoryStore } from "@tfgrpo/store";
import { evaluationGroupId } from "./group-ids.js";
import type { CircuitBreaker } from "./infrastructure-failures.js";
import type { LibraryEvaluation, LibraryUnderTest } from "./library-evaluation.js";
import {
  type RewardedRollouts,
  rewardGroup,
  rewardPooledGroups,
  rolloutJobs,
  runRollouts,
} from "./rollouts.js";

export type { LibraryEvaluation, LibraryUnderTest, TaskEvaluation } from "./library-evaluation.js";

export interface EvaluateOptions {
  bus: Bus;
  store: TrajectoryStore & RunStore;
  runId: string;
  /** Distinguishes evaluations inside one run (e.g. `s3/val`); part of every job id. */
  evaluationId: string;
  tasks: readonly Task[];
  libraries: readonly LibraryUnderTest[];
  /** Samples per task. */
  k: number;
  temperature: number;
  seed: number;
  purpose: RolloutRequest["purpose"];
  mode?: RolloutRequest["mode"];
  /**
   * required (default): every task's answer; none: each library's group votes its own majority label; when-answered:
   * a task's answer when it carries one, else one majority label per task from the pooled samples of all libraries
   * (each library scored against the same label: the comparison validation needs).
   */
  groundTruth?: "required" | "none" | "when-answered";
  epoch?: number;
  step?: number;
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Stop the evaluation when too many of its rollouts fail on the infrastructure. */
  circuitBreaker?: CircuitBreaker;
}

const groupIdOf = (options: EvaluateOptions, library: LibraryUnderTest, task: Task) =>
  evaluationGroupId(options.runId, options.evaluationId, library.label, task.id);

/**
 * Runs the rollouts of attempts `from` to `to - 1` (default: all `k`) of every library on every task, with the seeds
 * `evaluateLibraries` gives them; what the store already holds is not run again. The sequential gate samples its
 * rounds ahead this way (an attempt per round), then reads them with `evaluateLibraries`, which finds them stored.
 */
export async function runEvaluationRollouts(
  options: EvaluateOptions,
  attempts: { from?: number; to?: number } = {},
): Promise<void> {
  const { tasks, libraries, k } = options;
  const from = attempts.from ?? 0;
  const to = Math.min(attempts.to ?? k, k);
  const jobs = libraries.flatMap((library) =>
    tasks.flatMap((task) =>
      rolloutJobs({
        runId: options.runId,
        task,
        groupId: groupIdOf(options, library, task),
        attempts: to,
        library: library.library,
        temperature: options.temperature,
        purpose: options.purpose,
        ...(options.mode ? { mode: options.mode } : {}),
        ...(options.epoch === undefined ? {} : { epoch: options.epoch }),
        ...(options.step === undefined ? {} : { step: options.step }),
        // The same seed for a task's i-th sample under every library, so differences come from the library.
        seedOf: (attempt) => seedFrom(options.seed, task.id, attempt),
      }).filter((job) => job.input.attempt >= from),
    ),
  );
  await runRollouts({ ...options, jobs });
}

/**
 * Runs every library on the same tasks with the same seeds (a paired comparison), rewards each task's samples as one
 * group, and returns per-task rewards. Idempotent: finished rollouts and rewards found in the store are reused.
 */
export async function evaluateLibraries(options: EvaluateOptions): Promise<LibraryEvaluation[]> {
  const { bus, store, runId, evaluationId, tasks, libraries, k } = options;
  await runEvaluationRollouts(options);

  const groundTruth = options.groundTruth ?? "required";
  const pooled = (task: Task) => groundTruth === "when-answered" && task.answer === undefined;
  // Pooled tasks are rewarded once for all libraries (one shared label), before the per-library pass reads them.
  const pooledRewards = new Map<string, RewardedRollouts[]>();
  await mapWithConcurrency(tasks.filter(pooled), options.concurrency, async (task) => {
    pooledRewards.set(
      task.id,
      await rewardPooledGroups({
        bus,
        store,
        runId,
        task,
        poolId: `${runId}/${evaluationId}/pooled:${libraries.map((library) => library.label).join("+")}/${task.id}`,
        groupIds: libraries.map((library) => groupIdOf(options, library, task)),
      }),
    );
  });

  const results: LibraryEvaluation[] = [];
  for (const [index, library] of libraries.entries()) {
    const evaluations = await mapWithConcurrency(tasks, options.concurrency, async (task) => {
      const { rewarded, infrastructureFailures } =
        pooledRewards.get(task.id)?.[index] ??
        (await rewardGroup({
          bus,
          store,
          runId,
          task,
          groupId: groupIdOf(options, library, task),
          groundTruth: groundTruth === "none" ? "none" : "required",
        }));
      const group = [...rewarded, ...infrastructureFailures].sort((a, b) => a.attempt - b.attempt);
      const attemptRewards: (number | null)[] = Array.from({ length: k }, () => null);
      for (const trajectory of rewarded)
        if (trajectory.attempt < k) attemptRewards[trajectory.attempt] = trajectory.reward ?? 0;
      return {
        taskId: task.id,
        rewards: group.map((t) => t.reward ?? 0),
        taskLevelRewards: rewarded.map((t) => t.reward ?? 0),
        attemptRewards,
        infrastructureFailures: infrastructureFailures.length,
        trajectoryIds: group.map((t) => t.id),
      };
    });
    results.push({ label: library.label, library: library.library, tasks: evaluations });
  }
  return results;
}
