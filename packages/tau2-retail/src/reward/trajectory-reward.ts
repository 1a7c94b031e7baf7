import type { Task } from "@tfgrpo/protocol";
import type { RetailDb } from "../retail-db.js";
import { retailGoldOf } from "../retail-task.js";
import { applyStateChanges, type StateChange } from "./apply-state-changes.js";
import { createRetailReward } from "./retail-reward.js";

/** The parts of a tfgrpo trajectory the rule reads (its messages and its environment record). */
export interface RetailTrajectoryView {
  messages?: readonly { role: string; content: string }[];
  environment?: {
    diff?: readonly StateChange[];
    diffTruncated?: boolean;
    finalState?: unknown;
  };
}

export interface RetailTrajectoryReward {
  reward: 0 | 1;
  reason: string;
}

/**
 * τ²'s rule as a reward over a trajectory: the final database (stored, or rebuilt from the state diff against
 * `initial`) must equal the gold state, and every communicate_info string must be in an agent message.
 * No environment record (the attempt never reached its server) is 0 with a reason saying so.
 */
export function createRetailTrajectoryReward(initial: RetailDb) {
  const rule = createRetailReward();
  return (
    task: Task,
    _finalAnswer: string | null,
    trajectory: RetailTrajectoryView,
  ): RetailTrajectoryReward => {
    const gold = retailGoldOf(task);
    const environment = trajectory.environment;
    if (!environment)
      return { reward: 0, reason: "no environment record: the attempt's database is unknown" };
    let final = environment.finalState;
    if (final === undefined) {
      if (!environment.diff || environment.diffTruncated) {
        return { reward: 0, reason: "the final database was not stored and its diff is truncated" };
      }
      final = applyStateChanges(initial, environment.diff);
    }
    const agentMessages = (trajectory.messages ?? [])
      .filter((message) => message.role === "assistant" && message.content.trim() !== "")
      .map((message) => message.content);
    const result = rule({ initial, gold, final, agentMessages });
    if (result.reward === 1)
      return { reward: 1, reason: "the database equals the gold state; every fact was told" };
    const reasons = [
      ...(result.dbMatch ? [] : ["the database differs from the gold state"]),
      ...(result.missingInfo.length > 0 ? [`not told: ${result.missingInfo.join(", ")}`] : []),
    ];
    return { reward: 0, reason: reasons.join("; ") };
  };
}
