import { isHomogeneousGroup } from "@tfgrpo/protocol";

/** A task's training rollouts of one step, as the graph state keeps them: ids and rewards only. */
export interface RewardedGroup {
  groupId: string;
  taskId: string;
  /** The rewards of the task-level attempts (infrastructure failures have none). */
  rewards: number[];
  /** Attempts that failed on the infrastructure: not rewarded, not compared (absent in older checkpoints). */
  infrastructureFailures?: number;
}

/**
 * Why a group teaches nothing, or null when it is compared. A group needs 2 task-level attempts (G = 1, the
 * single-trajectory ablation, needs 1), and the paper's std = 0 rule skips one whose rewards are all equal.
 */
export function groupSkipReason(group: RewardedGroup, groupSize: number): string | null {
  const failed = group.infrastructureFailures ?? 0;
  const needed = Math.min(2, groupSize);
  if (group.rewards.length < needed)
    return `${group.rewards.length} task-level attempt(s) of ${group.rewards.length + failed} (${failed} infrastructure failure(s)), ${needed} needed`;
  if (isHomogeneousGroup(group.rewards)) return "homogeneous";
  return null;
}
