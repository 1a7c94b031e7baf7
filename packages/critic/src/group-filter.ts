import { isHomogeneousGroup } from "@tfgrpo/protocol";

export interface RewardedGroup {
  groupId: string;
  rewards: readonly number[];
}

export interface SkippedGroup {
  groupId: string;
  reason: string;
}

export interface GroupFilterResult<G extends RewardedGroup> {
  /** Groups with both better and worse rollouts: the ones with something to learn. */
  kept: G[];
  skipped: SkippedGroup[];
  /** `skipped.length`, for the step's report. */
  skippedCount: number;
}

/**
 * Why a group has nothing to compare (the paper's std = 0 rule, `isHomogeneousGroup`: all rewards equal, so the
 * numeric advantage is zero for everyone), or null when it is learnable. A single rollout is learnable: it is the
 * G = 1 ablation, reflected on alone.
 */
export function homogeneousReason(rewards: readonly number[]): string | null {
  if (!isHomogeneousGroup(rewards)) return null;
  if (rewards.length === 0) return "no rollouts in the group";
  return `homogeneous rewards (all ${rewards.length} are ${rewards[0]}): std = 0, nothing to compare`;
}

/** Splits groups into learnable ones and homogeneous ones, with the count reported. */
export function filterGroups<G extends RewardedGroup>(groups: readonly G[]): GroupFilterResult<G> {
  const kept: G[] = [];
  const skipped: SkippedGroup[] = [];
  for (const group of groups) {
    const reason = homogeneousReason(group.rewards);
    if (reason === null) kept.push(group);
    else skipped.push({ groupId: group.groupId, reason });
  }
  return { kept, skipped, skippedCount: skipped.length };
}
