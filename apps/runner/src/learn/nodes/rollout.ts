import { seedFrom } from "@tfgrpo/protocol";
import { rolloutJobs, runRollouts, trainingGroupId } from "../rollouts.js";
import { statsRevisionFor } from "./credit.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * N tasks x G attempts under the head (fewer for tasks that taught nothing so far: `settledTaskIds`), dispatched through the Bus work queue as one batch of jobs (not one graph task
 * per rollout). Rollouts already stored, e.g. before a crash, are not sent again.
 */
export function rollout({ bus, store, options, runId, domain, train, progress, stop }: LearnDependencies) {
  return async (state: {
    epoch: number;
    step: number;
    batchTaskIds: string[];
    settledTaskIds?: string[];
    headVersion: number | null;
    statsRevision: string | null;
  }) => {
    // A task that taught nothing in every earlier group gets fewer attempts (at least 2: still a contrast).
    const settled = new Set(state.settledTaskIds ?? []);
    const attemptsOf = (taskId: string) =>
      settled.has(taskId) ? Math.min(options.groupSize, options.settledTaskAttempts) : options.groupSize;
    const jobs = state.batchTaskIds.flatMap((taskId) =>
      rolloutJobs({
        runId,
        task: train.get(taskId),
        groupId: trainingGroupId(runId, state.step, taskId),
        attempts: attemptsOf(taskId),
        epoch: state.epoch,
        step: state.step,
        // Stats as the previous step's credit left them: exactly what this step's rollouts may rank by.
        library:
          state.headVersion === null
            ? null
            : {
                domain,
                version: state.headVersion,
                statsRevision: statsRevisionFor(runId, state.statsRevision),
              },
        mode: options.mode,
        temperature: options.temperature,
        purpose: "train",
        seedOf: (attempt) => seedFrom(options.seed, state.step, taskId, attempt),
        ...(options.exposure === "varied" && state.headVersion !== null
          ? {
              exposure: {
                attempts: attemptsOf(taskId),
                seed: seedFrom(options.seed, state.step, taskId, "exposure"),
                activeShare: options.exposureActiveShare,
              },
            }
          : {}),
      }),
    );
    const bar = progress(`step ${state.step} rollouts`);
    await runRollouts({
      bus,
      store,
      runId,
      jobs,
      onProgress: bar.update,
      circuitBreaker: {
        maxRate: options.maxInfraFailureRate,
        phase: `step ${state.step}`,
        resume: `tfgrpo learn --resume ${runId}`,
      },
      ...stop,
    });
    bar.done();
    return {};
  };
}
