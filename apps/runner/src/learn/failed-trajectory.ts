import { emptyUsageTotals, type RolloutRequest, type Trajectory } from "@tfgrpo/protocol";

/** The record of a rollout whose worker failed outright: it still counts (reward 0 later), with the reason. */
export function failedTrajectory(id: string, input: RolloutRequest, error: string): Trajectory {
  return {
    id,
    runId: input.runId,
    taskId: input.task.id,
    groupId: input.groupId,
    attempt: input.attempt,
    ...(input.epoch === undefined ? {} : { epoch: input.epoch }),
    ...(input.step === undefined ? {} : { step: input.step }),
    domain: input.task.domain,
    libraryVersion: input.library?.version ?? null,
    messages: [],
    toolCalls: [],
    finalAnswer: null,
    experiencesShown: [],
    experiencesCited: [],
    usage: emptyUsageTotals(),
    latencyMs: 0,
    stopReason: "error",
    error,
  };
}
