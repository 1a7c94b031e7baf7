import {
  actorRollout,
  type Bus,
  criticReward,
  type emptyUsageTotals,
  mapWithConcurrency,
  type RolloutRequest,
  serializeError,
  type Task,
  type Trajectory,
} from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import { seedFrom } from "../metrics/seeded-random.js";
import { failedTrajectory } from "./failed-trajectory.js";
import { runJobs } from "./run-jobs.js";

export interface LibraryUnderTest {
  /** How the library is shown in tables: `none`, `math@v3`... */
  label: string;
  library: { domain: string; version: number; statsRevision?: string } | null;
}

export interface TaskEvaluation {
  taskId: string;
  rewards: number[];
  trajectoryIds: string[];
}

export interface LibraryEvaluation {
  label: string;
  library: LibraryUnderTest["library"];
  tasks: TaskEvaluation[];
}

export interface EvaluateOptions {
  bus: Bus;
  store: Store;
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
  groundTruth?: "required" | "none";
  epoch?: number;
  step?: number;
  concurrency: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Runs every library on the same tasks with the same seeds (a paired comparison), rewards each task's samples as one
 * group, and returns per-task rewards. Idempotent: finished rollouts and rewards found in the store are reused.
 */
export async function evaluateLibraries(options: EvaluateOptions): Promise<LibraryEvaluation[]> {
  const { bus, store, runId, evaluationId, tasks, libraries, k } = options;
  const jobs: { id: string; input: RolloutRequest }[] = [];
  for (const library of libraries) {
    for (const task of tasks) {
      const groupId = `${runId}/${evaluationId}/${library.label}/${task.id}`;
      for (let attempt = 0; attempt < k; attempt++) {
        jobs.push({
          id: `${groupId}/${attempt}`,
          input: {
            runId,
            task,
            groupId,
            attempt,
            ...(options.epoch === undefined ? {} : { epoch: options.epoch }),
            ...(options.step === undefined ? {} : { step: options.step }),
            library: library.library,
            temperature: options.temperature,
            // The same seed for a task's i-th sample under every library, so differences come from the library.
            seed: seedFrom(options.seed, task.id, attempt),
            purpose: options.purpose,
            ...(options.mode ? { mode: options.mode } : {}),
          },
        });
      }
    }
  }
  await runRollouts({ ...options, jobs });

  const results: LibraryEvaluation[] = [];
  for (const library of libraries) {
    const evaluations = await mapWithConcurrency(tasks, options.concurrency, async (task) => {
      const groupId = `${runId}/${evaluationId}/${library.label}/${task.id}`;
      const group = await rewardGroup({
        bus,
        store,
        runId,
        task,
        groupId,
        groundTruth: options.groundTruth ?? "required",
      });
      return {
        taskId: task.id,
        rewards: group.map((t) => t.reward ?? 0),
        trajectoryIds: group.map((t) => t.id),
      };
    });
    results.push({ label: library.label, library: library.library, tasks: evaluations });
  }
  return results;
}

/** Dispatches rollout jobs and stores each trajectory once (a failed job is stored as a failed trajectory). */
export async function runRollouts(options: {
  bus: Bus;
  store: Store;
  runId: string;
  jobs: readonly { id: string; input: RolloutRequest }[];
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}): Promise<void> {
  const { bus, store, runId, jobs } = options;
  const inputs = new Map(jobs.map((job) => [job.id, job.input]));
  await runJobs({
    bus,
    subject: actorRollout,
    replyTo: runId,
    jobs,
    isDone: async (jobId) => (await store.getTrajectory(jobId)) !== null,
    onResult: async (result) => {
      const input = inputs.get(result.jobId);
      if (result.ok) {
        // The job id is the trajectory id, whatever id the worker gave it: that is what makes a redelivered result
        // (or a second worker's copy) land on the same row.
        await store.putTrajectories([{ ...result.output, id: result.jobId }]);
        const { calls: _calls, ...usage } = result.output.usage;
        await store.recordUsage(runId, [
          { id: `rollout/${result.jobId}`, role: "actor", model: result.output.model ?? "actor", ...usage },
        ]);
      } else if (input) {
        await store.putTrajectories([
          failedTrajectory(result.jobId, input, serializeError(result.error).message),
        ]);
      }
    },
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * Rewards one group through the critic (skipped when every trajectory already has a reward) and writes the rewards
 * onto the stored trajectories. Returns the group ordered by attempt.
 */
export async function rewardGroup(options: {
  bus: Bus;
  store: Store;
  runId: string;
  task: Task;
  groupId: string;
  groundTruth: "required" | "none";
}): Promise<Trajectory[]> {
  const { bus, store, task, groupId } = options;
  const group = await store.listTrajectories({ runId: options.runId, groupId });
  if (group.length === 0 || group.every((t) => t.reward !== undefined)) return group;
  const reply = await bus.request(criticReward, {
    task,
    answers: group.map((t) => ({ trajectoryId: t.id, finalAnswer: t.finalAnswer })),
    groundTruth: options.groundTruth,
  });
  const byId = new Map(reply.rewards.map((r) => [r.trajectoryId, r]));
  const rewarded = group.map((trajectory): Trajectory => {
    const reward = byId.get(trajectory.id);
    if (!reward)
      return {
        ...trajectory,
        reward: 0,
        rewardInfo: { grade: "fail", method: "missing", reason: "no reward returned" },
      };
    return {
      ...trajectory,
      reward: reward.reward,
      rewardInfo: {
        grade: reward.grade,
        extracted: reward.extracted,
        method: reward.method,
        ...(reward.reason ? { reason: reward.reason } : {}),
        ...(reward.pseudoLabel ? { pseudoLabel: true } : {}),
      },
    };
  });
  await store.putTrajectories(rewarded);
  // Without ground truth the critic's majority-vote label is what the group advantage compares against.
  if (reply.pseudoLabel !== undefined && reply.pseudoLabel !== null) {
    await store.putRunState(options.runId, pseudoLabelKey(groupId), reply.pseudoLabel);
  }
  if (reply.usage && reply.usage.calls > 0) {
    await store.recordUsage(options.runId, [
      { id: `reward/${groupId}`, role: "judge", model: "judge", ...withoutCalls(reply.usage) },
    ]);
  }
  return rewarded;
}

export function pseudoLabelKey(groupId: string): string {
  return `pseudo-label/${groupId}`;
}

function withoutCalls(usage: ReturnType<typeof emptyUsageTotals>) {
  const { calls: _calls, ...rest } = usage;
  return rest;
}
