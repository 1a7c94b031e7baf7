import { curatorCredit } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import type { RewardedGroup } from "./rewarded-group.js";

/**
 * Every entry the head showed learns how its rollouts did against their group's mean (the curator updates the stats).
 * Done once per step: a resumed step does not count the same rollouts twice.
 */
export function credit({ bus, store, runId, domain, runState }: LearnDependencies) {
  return async (state: { step: number; headVersion: number | null; groups: RewardedGroup[] }) => {
    if (state.headVersion === null) return {};
    const mark = runStateKeys.credit(state.step);
    if ((await runState.get(mark)) !== undefined) return {};
    const observations = [];
    for (const group of state.groups) {
      const trajectories = await store.listTrajectories({ runId, groupId: group.groupId });
      const mean = average(trajectories.map((t) => t.reward ?? 0));
      for (const t of trajectories) {
        observations.push({
          trajectoryId: t.id,
          reward: t.reward ?? 0,
          groupMeanReward: mean,
          shown: t.experiencesShown,
          cited: t.experiencesCited,
        });
      }
    }
    await bus.request(curatorCredit, { domain, version: state.headVersion, observations });
    await runState.put(mark, { observations: observations.length });
    return {};
  };
}

/** Names "the stats after the credit of step N" for the actors' snapshot caches. */
export function statsRevision(runId: string, step: number): string {
  return `${runId}/credit-${step}`;
}
