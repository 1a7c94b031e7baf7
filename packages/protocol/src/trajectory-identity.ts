import type { Trajectory } from "./schemas/trajectory.js";
import type { RolloutRequest } from "./subjects.js";

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

/**
 * The fields of a trajectory that record its group's varied exposure: the entries withheld from this attempt, and
 * every varied entry's similarity to the task. Written the same way by every actor.
 */
export function variedFields(plan: {
  withheld: readonly string[];
  variedSimilarity: Readonly<Record<string, number>>;
}): Pick<Trajectory, "experiencesWithheld" | "experienceSimilarity"> {
  return {
    ...(plan.withheld.length > 0 ? { experiencesWithheld: [...plan.withheld] } : {}),
    ...(Object.keys(plan.variedSimilarity).length > 0
      ? { experienceSimilarity: { ...plan.variedSimilarity } }
      : {}),
  };
}
