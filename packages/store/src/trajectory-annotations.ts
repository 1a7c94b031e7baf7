import type { Trajectory } from "@tfgrpo/protocol";

/**
 * The upsert's condition for replacing a stored trajectory (`trajectories` is the stored row, `excluded` the copy
 * coming in): a copy without a reward never replaces a rewarded one. A rollout's result can arrive again at any
 * time (a NATS redelivery, a results consumer that lost its state, a resumed run): the reward and its annotations
 * (`rewardInfo`, written with it) stay, and the redelivery is a no-op. A copy with a reward (re-rewarding pooled
 * groups) still replaces, and so does any copy of an unrewarded one (a redone infrastructure failure).
 */
export const keepsAnnotations = "excluded.reward IS NOT NULL OR trajectories.reward IS NULL";

/** What one upsert per copy, in order, leaves of trajectories given more than once in one call. */
export function latestCopies(trajectories: readonly Trajectory[]): Trajectory[] {
  const byId = new Map<string, Trajectory>();
  for (const copy of trajectories) {
    const stored = byId.get(copy.id);
    if (stored?.reward !== undefined && copy.reward === undefined) continue;
    byId.set(copy.id, copy);
  }
  return [...byId.values()];
}
