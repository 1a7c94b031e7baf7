import { rewardTolerance } from "./reward-tolerance.js";

/**
 * The paper's std = 0 rule: a group whose rewards are all equal (within `rewardTolerance`) has no better and worse
 * rollout to compare, so its numeric advantage is zero for everyone and there is nothing to learn from it. An empty
 * group is homogeneous too (nothing to compare). A single rollout is not: it is the G = 1 ablation, reflected on
 * alone.
 */
export function isHomogeneousGroup(rewards: readonly number[]): boolean {
  if (rewards.length === 0) return true;
  if (rewards.length === 1) return false;
  const first = rewards[0]!;
  return rewards.every((reward) => Math.abs(reward - first) < rewardTolerance);
}
