import type { RolloutRequest, Trajectory } from "@tfgrpo/protocol";

/**
 * The fields of a trajectory that name the rollout it answers: its request's run, task, group, attempt, epoch and
 * step, the domain, and the library version it was shown. Every actor (tfgrpo's own, a team's agent module) writes
 * them the same way.
 */
export function trajectoryIdentity(
  request: RolloutRequest,
  id: string,
  libraryVersion: number | null,
): Pick<
  Trajectory,
  "id" | "runId" | "taskId" | "groupId" | "attempt" | "epoch" | "step" | "domain" | "libraryVersion"
> {
  return {
    id,
    runId: request.runId,
    taskId: request.task.id,
    groupId: request.groupId,
    attempt: request.attempt,
    ...(request.epoch === undefined ? {} : { epoch: request.epoch }),
    ...(request.step === undefined ? {} : { step: request.step }),
    domain: request.task.domain,
    libraryVersion,
  };
}
