import { emptyUsageTotals, type RolloutRequest, type Trajectory, trajectoryIdentity } from "@tfgrpo/protocol";

/** The record of a rollout whose worker failed outright: it still counts (reward 0 later), with the reason. */
export function failedTrajectory(id: string, input: RolloutRequest, error: string): Trajectory {
  return {
    ...trajectoryIdentity(input, id, input.library?.version ?? null),
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
