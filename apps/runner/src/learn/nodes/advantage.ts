import {
  criticAdvantage,
  type GroupAdviceResult,
  type LibraryVersionRef,
  mapWithConcurrency,
} from "@tfgrpo/protocol";
import { splitRollouts } from "../infrastructure-failures.js";
import { recordRoleUsage } from "../record-role-usage.js";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { groupSkipReason, type RewardedGroup } from "./rewarded-group.js";

/**
 * The group advantage in words: groups whose rewards are all equal are skipped (std = 0); for each other group the
 * critic summarizes every trajectory and compares winners with losers, proposing at most 3 operations on the head.
 * The critic is sent ids (the group's trajectories, the head version) and reads them itself. Each group's answer is
 * kept, so a resumed step asks the critic only about the groups it has not answered yet.
 */
export function advantage(deps: LearnDependencies) {
  const { store, options, runId, domain, runState, progress, log } = deps;
  return async (state: { step: number; headVersion: number | null; groups: RewardedGroup[] }) => {
    const library = state.headVersion === null ? null : { domain, version: state.headVersion };
    // The paper's std = 0 rule. With G = 1 there is no group to compare, so every single trajectory is reflected on
    // (the ablation): a group of one is never homogeneous.
    // A group left with too few task-level attempts (infrastructure failures are not compared) is skipped too.
    const reasons = state.groups.map((group) => groupSkipReason(group, options.groupSize));
    const learnable = state.groups.filter((_, i) => reasons[i] === null);
    const homogeneous = reasons.filter((reason) => reason === "homogeneous").length;
    state.groups.forEach((group, i) => {
      const reason = reasons[i];
      if (reason && reason !== "homogeneous")
        log(`step ${state.step}: group ${group.taskId} skipped: ${reason}`);
    });
    const tooFew = state.groups.length - learnable.length - homogeneous;
    log(
      `step ${state.step}: ${learnable.length} group(s) to learn from, ${homogeneous} homogeneous group(s) skipped${tooFew > 0 ? `, ${tooFew} with too few task-level attempts` : ""}`,
    );
    const bar = progress(`step ${state.step} advantages`);
    let finished = 0;
    const results = await mapWithConcurrency(learnable, options.concurrency, async (group) => {
      const entry = runStateKeys.advice(group.groupId);
      let advice = await runState.get(entry);
      if (!advice) {
        advice = await askCritic(deps, group, library);
        await runState.put(entry, advice);
        if (advice.usage && advice.usage.calls > 0)
          await recordRoleUsage(store, runId, entry.key, "critic", advice.usage);
      }
      if (advice.skipped) log(`step ${state.step}: group ${group.taskId} skipped: ${advice.skipped}`);
      bar.update(++finished, learnable.length);
      return advice;
    });
    bar.done();
    const proposals = results.flatMap((r) => r.proposals);
    await runState.put(runStateKeys.proposals(state.step), proposals);
    return { proposals: proposals.length };
  };
}

async function askCritic(
  { bus, store, options, runId, runState, train }: LearnDependencies,
  group: RewardedGroup,
  library: LibraryVersionRef | null,
): Promise<GroupAdviceResult> {
  const { taskLevel: trajectories } = splitRollouts(
    await store.listTrajectories({ runId, groupId: group.groupId }),
  );
  const pseudoLabel = (await runState.get(runStateKeys.pseudoLabel(group.groupId))) ?? null;
  try {
    return await bus.request(criticAdvantage, {
      runId,
      groupId: group.groupId,
      task: train.get(group.taskId),
      trajectoryIds: trajectories.map((t) => t.id),
      library,
      ...(options.groundTruth === "none" ? { pseudoLabel } : {}),
    });
  } catch (error) {
    // One group's unusable critic answer must not fail the step: it is skipped with its reason.
    return {
      groupId: group.groupId,
      summaries: [],
      proposals: [],
      skipped: `critic failed: ${(error as Error).message}`,
    };
  }
}
