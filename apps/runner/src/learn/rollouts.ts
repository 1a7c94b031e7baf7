import {
  actorRollout,
  type Bus,
  criticReward,
  isInfrastructureFailure,
  type RolloutRequest,
  seedFrom,
  serializeError,
  type Task,
  type Trajectory,
} from "@tfgrpo/protocol";
import type { RunStore, TrajectoryStore } from "@tfgrpo/store";
import { failedTrajectory } from "./failed-trajectory.js";
import { type CircuitBreaker, checkCircuitBreaker, splitRollouts } from "./infrastructure-failures.js";
import { withoutCalls } from "./record-role-usage.js";
import { runJobs } from "./run-jobs.js";
import { runStateKeys, runStateOf } from "./run-state.js";

/** One rollout to dispatch: its id is also the stored trajectory's id. */
export interface RolloutJob {
  id: string;
  input: RolloutRequest;
}

/** The rollouts of one task under one library, for training, validation or evaluation alike. */
export interface RolloutGroup {
  runId: string;
  task: Task;
  groupId: string;
  attempts: number;
  library: RolloutRequest["library"];
  temperature: number;
  purpose: RolloutRequest["purpose"];
  mode?: RolloutRequest["mode"];
  epoch?: number;
  step?: number;
  /** The seed of each attempt. */
  seedOf: (attempt: number) => number;
  /** Entries varied inside the group (training only). */
  exposure?: RolloutRequest["exposure"];
}

/** The rollout requests of one group, one job per attempt (job id `<groupId>/<attempt>`). */
export function rolloutJobs(group: RolloutGroup): RolloutJob[] {
  const jobs: RolloutJob[] = [];
  for (let attempt = 0; attempt < group.attempts; attempt++) {
    jobs.push({
      id: `${group.groupId}/${attempt}`,
      input: {
        runId: group.runId,
        task: group.task,
        groupId: group.groupId,
        attempt,
        ...(group.epoch === undefined ? {} : { epoch: group.epoch }),
        ...(group.step === undefined ? {} : { step: group.step }),
        library: group.library,
        ...(group.mode ? { mode: group.mode } : {}),
        temperature: group.temperature,
        seed: group.seedOf(attempt),
        purpose: group.purpose,
        ...(group.exposure ? { exposure: group.exposure } : {}),
      },
    });
  }
  return jobs;
}

/** Stored trajectories looked up per query when a phase starts. */
const storedReadBatch = 500;

/** Marks the job id of a rollout done again after an infrastructure failure: `<trajectory id>#retry-<stamp>`. */
const retrySeparator = "#retry-";

/** The trajectory a rollout job stores (a redone rollout's job id carries a retry mark). */
export function trajectoryIdOf(jobId: string): string {
  const at = jobId.indexOf(retrySeparator);
  return at === -1 ? jobId : jobId.slice(0, at);
}

// Group ids are made and read in one module; re-exported for the nodes that import them from here.
export { trainingGroupId } from "./group-ids.js";

/**
 * Dispatches rollout jobs and stores each trajectory once (a failed job is stored as a failed trajectory). A rollout
 * stored as an infrastructure failure (e.g. before the circuit breaker stopped the run) is done again; task-level
 * ones are reused. With a circuit breaker, the phase stops with its error when too many rollouts failed on the
 * infrastructure.
 */
export async function runRollouts(options: {
  bus: Bus;
  store: TrajectoryStore;
  runId: string;
  jobs: readonly RolloutJob[];
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  circuitBreaker?: CircuitBreaker;
}): Promise<void> {
  const { bus, store, runId, jobs } = options;
  const inputs = new Map(jobs.map((job) => [job.id, job.input]));
  // What an earlier attempt of this phase stored, read in batches before anything is sent (one query per batch,
  // not two per job in a row on the phase's critical path).
  const stored = new Map<string, Trajectory>();
  for (let start = 0; start < jobs.length; start += storedReadBatch) {
    const ids = jobs.slice(start, start + storedReadBatch).map((job) => job.id);
    for (const trajectory of await store.listTrajectories({ ids })) stored.set(trajectory.id, trajectory);
  }
  // A redone rollout needs a job id of its own: the Bus runs a job id once (NATS dedupe, the in-process queue).
  const retry = `${retrySeparator}${Date.now().toString(36)}`;
  const dispatched = jobs.map((job): RolloutJob => {
    const earlier = stored.get(job.id);
    return earlier && isInfrastructureFailure(earlier) ? { ...job, id: `${job.id}${retry}` } : job;
  });
  await runJobs({
    bus,
    subject: actorRollout,
    replyTo: runId,
    jobs: dispatched,
    isDone: async (jobId) => {
      const earlier = stored.get(trajectoryIdOf(jobId));
      return earlier !== undefined && !isInfrastructureFailure(earlier);
    },
    onResult: async (result) => {
      const trajectoryId = trajectoryIdOf(result.jobId);
      const input = inputs.get(trajectoryId);
      // A late copy of a failed attempt (redelivered, or from before a resume) never replaces a task-level rollout.
      const failure = result.ok ? isInfrastructureFailure(result.output) : true;
      if (failure) {
        const stored = await store.getTrajectory(trajectoryId);
        if (stored && !isInfrastructureFailure(stored)) return;
      }
      if (result.ok) {
        // The job id is the trajectory id, whatever id the worker gave it: that is what makes a redelivered result
        // (or a second worker's copy) land on the same row.
        await store.putTrajectories([{ ...result.output, id: trajectoryId }]);
        await store.recordUsage(runId, [
          {
            id: `rollout/${result.jobId}`,
            role: "actor",
            model: result.output.model ?? "actor",
            ...withoutCalls(result.output.usage),
          },
        ]);
      } else if (input) {
        await store.putTrajectories([
          failedTrajectory(trajectoryId, input, serializeError(result.error).message),
        ]);
      }
    },
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (options.circuitBreaker && jobs.length > 0) {
    const stored = await store.listTrajectories({ ids: jobs.map((job) => job.id) });
    checkCircuitBreaker(stored, options.circuitBreaker);
  }
}

/**
 * Rewards one group through the critic (skipped when every task-level trajectory already has a reward) and writes
 * the rewards onto the stored trajectories. The request names the trajectories by id; the critic reads them.
 * Infrastructure failures (`isInfrastructureFailure`) get no reward and are not sent: they are returned apart.
 * Returns the group ordered by attempt.
 */
export async function rewardGroup(options: {
  bus: Bus;
  store: TrajectoryStore & RunStore;
  runId: string;
  task: Task;
  groupId: string;
  groundTruth: "required" | "none";
}): Promise<RewardedRollouts> {
  const { store, runId, groupId } = options;
  const { taskLevel: group, infrastructureFailures } = splitRollouts(
    await store.listTrajectories({ runId, groupId }),
  );
  if (group.length === 0 || group.every((t) => t.reward !== undefined))
    return { rewarded: group, infrastructureFailures };
  return { rewarded: await rewardTrajectories({ ...options, group }), infrastructureFailures };
}

/**
 * Rewards the task-level rollouts of several groups of one task (one group per library compared) as ONE group: without
 * ground truth, one majority label formed from all their samples, so every library is scored against the same label
 * (a label per library would score each against its own majority, and every library would look right). Always
 * re-rewarded: the label depends on which groups are compared. Returns each group's rollouts, in `groupIds` order.
 */
export async function rewardPooledGroups(options: {
  bus: Bus;
  store: TrajectoryStore & RunStore;
  runId: string;
  task: Task;
  /** Names the pooled reward (usage record, pseudo-label). */
  poolId: string;
  groupIds: readonly string[];
}): Promise<RewardedRollouts[]> {
  const { store, runId } = options;
  const groups = await Promise.all(
    options.groupIds.map(async (groupId) => splitRollouts(await store.listTrajectories({ runId, groupId }))),
  );
  // A neutral order for the vote: a tie between answers must not go to whichever library is listed first.
  const pooled = groups
    .flatMap((group) => group.taskLevel)
    .sort((a, b) => seedFrom(a.id) - seedFrom(b.id) || a.id.localeCompare(b.id));
  const rewarded =
    pooled.length === 0
      ? []
      : await rewardTrajectories({ ...options, groupId: options.poolId, group: pooled, groundTruth: "none" });
  const byId = new Map(rewarded.map((trajectory) => [trajectory.id, trajectory]));
  return groups.map((group) => ({
    rewarded: group.taskLevel
      .map((trajectory) => byId.get(trajectory.id)!)
      .sort((a, b) => a.attempt - b.attempt),
    infrastructureFailures: group.infrastructureFailures,
  }));
}

/** One critic reward call on `group` (task-level rollouts), its rewards written onto the stored trajectories. */
async function rewardTrajectories(options: {
  bus: Bus;
  store: TrajectoryStore & RunStore;
  runId: string;
  task: Task;
  groupId: string;
  group: readonly Trajectory[];
  groundTruth: "required" | "none";
}): Promise<Trajectory[]> {
  const { bus, store, runId, task, groupId, group } = options;
  const reply = await bus.request(criticReward, {
    task,
    groupId,
    trajectoryIds: group.map((t) => t.id),
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
    await runStateOf(store, runId).put(runStateKeys.pseudoLabel(groupId), reply.pseudoLabel);
  }
  if (reply.usage && reply.usage.calls > 0) {
    await store.recordUsage(runId, [
      { id: `reward/${groupId}`, role: "judge", model: "judge", ...withoutCalls(reply.usage) },
    ]);
  }
  return rewarded;
}

/** A rewarded group: its task-level rollouts (rewarded) and its infrastructure failures (no reward). */
export interface RewardedRollouts {
  rewarded: Trajectory[];
  infrastructureFailures: Trajectory[];
}
