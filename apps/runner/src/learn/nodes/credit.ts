import { curatorCredit } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { splitRollouts } from "../infrastructure-failures.js";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import type { RewardedGroup } from "./rewarded-group.js";

/**
 * Every entry the head showed learns how its rollouts did against their group's mean, and every entry varied inside a
 * group its contrast (rollouts that showed it against those it was withheld from); the curator updates the stats and
 * names the revision it left them at. Done once per step: a resumed step does not count the same rollouts twice.
 */
export function credit({ bus, store, runId, domain, runState }: LearnDependencies) {
  return async (state: {
    step: number;
    headVersion: number | null;
    statsRevision: string | null;
    groups: RewardedGroup[];
  }) => {
    if (state.headVersion === null) return {};
    const mark = runStateKeys.credit(state.step);
    const done = await runState.get(mark);
    if (done !== undefined)
      return done.statsRevision === undefined ? {} : { statsRevision: done.statsRevision };
    const observations = [];
    for (const group of state.groups) {
      // Infrastructure failures say nothing about the entries shown: neither observed nor part of the group mean.
      const { taskLevel: trajectories } = splitRollouts(
        await store.listTrajectories({ runId, groupId: group.groupId }),
      );
      if (trajectories.length === 0) continue;
      const mean = average(trajectories.map((t) => t.reward ?? 0));
      for (const t of trajectories) {
        observations.push({
          trajectoryId: t.id,
          reward: t.reward ?? 0,
          groupMeanReward: mean,
          shown: t.experiencesShown,
          cited: t.experiencesCited,
          groupId: group.groupId,
          ...(t.experiencesWithheld?.length ? { withheld: t.experiencesWithheld } : {}),
          ...(t.experienceSimilarity ? { similarity: t.experienceSimilarity } : {}),
        });
      }
    }
    if (observations.length === 0) {
      // Nothing task-level to learn from: the stats stay where they were.
      await runState.put(mark, {
        observations: 0,
        ...(state.statsRevision === null ? {} : { statsRevision: state.statsRevision }),
      });
      return {};
    }
    const reply = await bus.request(curatorCredit, { domain, version: state.headVersion, observations });
    await runState.put(mark, { observations: observations.length, statsRevision: reply.statsRevision });
    return { statsRevision: reply.statsRevision };
  };
}

/**
 * The stats revision rollouts pass on to actors: the one the curator's last credit returned. Before this run's first
 * credit the stats are as the run found them; that state is named after the run, so no actor ranks by a snapshot it
 * cached before the run began (a worker that served an earlier run).
 */
export function statsRevisionFor(runId: string, revision: string | null | undefined): string {
  return revision ?? `${runId}/start`;
}
