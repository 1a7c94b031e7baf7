import { seedFrom } from "@tfgrpo/protocol";
import { trainingGroupId } from "../rollouts.js";
import { runStateKeys } from "../run-state.js";
import { batchWithFailures, stratifiedOrder } from "../stratified-order.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * Picks the next batch of training tasks, or ends the run when its budget is spent. Each epoch visits the train set
 * in its own seeded order, stratified by a task field, batch by batch; a share of each batch goes to tasks that
 * failed earlier in the run (seed 002 §5.1). The batch depends only on the seed and the finished steps, so a step
 * re-sampled after a crash gets the same batch.
 */
export function sampleBatch({
  store,
  options,
  runId,
  train,
  batchSize,
  batchesPerEpoch,
  domain,
  log,
  runState,
  stratifyField,
}: LearnDependencies) {
  /** Tasks whose latest group before `step` had mean reward below 1; each finished step's outcome is stored once. */
  const earlierFailures = async (step: number): Promise<string[]> => {
    const failing = new Map<string, boolean>();
    for (let earlier = 1; earlier < step; earlier++) {
      let outcome = await runState.get(runStateKeys.batchOutcomes(earlier));
      if (!outcome) {
        const rewards = new Map<string, number[]>();
        for (const trajectory of await store.listTrajectories({ runId, step: earlier })) {
          if (trajectory.reward === undefined || trajectory.reward === null) continue;
          if (trajectory.groupId !== trainingGroupId(runId, earlier, trajectory.taskId)) continue;
          rewards.set(trajectory.taskId, [...(rewards.get(trajectory.taskId) ?? []), trajectory.reward]);
        }
        const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
        const ids = [...rewards.keys()].sort();
        outcome = {
          failed: ids.filter((id) => mean(rewards.get(id)!) < 1),
          passed: ids.filter((id) => mean(rewards.get(id)!) >= 1),
        };
        await runState.put(runStateKeys.batchOutcomes(earlier), outcome);
      }
      for (const id of outcome.failed) failing.set(id, true);
      for (const id of outcome.passed) failing.set(id, false);
    }
    return [...failing].filter(([, failed]) => failed).map(([id]) => id);
  };

  return async (state: { epoch: number; batchIndex: number; step: number; headVersion: number | null }) => {
    if (options.budgetUsd !== undefined) {
      const spent = (await store.getUsageTotals(runId)).total.costUsd;
      if (spent >= options.budgetUsd) {
        log(
          `budget reached ($${spent.toFixed(4)} of $${options.budgetUsd}): stopping before step ${state.step + 1}`,
        );
        return { done: true, stoppedBy: "budget" };
      }
    }
    const step = state.step + 1;
    const order = stratifiedOrder(train, stratifyField, seedFrom(options.seed, "epoch", state.epoch));
    const slice = order.slice(state.batchIndex * batchSize, (state.batchIndex + 1) * batchSize);
    // With the whole train set in every batch, earlier failures are in it already.
    const batchTaskIds =
      options.failureShare > 0 && batchSize < train.length
        ? batchWithFailures(
            slice,
            await earlierFailures(step),
            options.failureShare,
            seedFrom(options.seed, "failures", step),
          )
        : slice;
    // Another runner learning the same library may have committed since: each step starts from the current head.
    const head = await store.getHeadVersion(domain);
    if (head !== state.headVersion) {
      const name = (v: number | null) => (v === null ? "the empty library" : `v${v}`);
      log(
        `step ${step}: library ${domain} is at ${name(head)}, not ${name(state.headVersion)}: another writer committed; learning on ${name(head)}`,
      );
    }
    log(
      `step ${step} (epoch ${state.epoch + 1}/${options.epochs}, batch ${state.batchIndex + 1}/${batchesPerEpoch}): ${batchTaskIds.length} tasks x ${options.groupSize} rollouts`,
    );
    return {
      step,
      batchTaskIds,
      headVersion: head,
      headBefore: head,
      candidateVersion: null,
      candidateScore: null,
      headScore: null,
      baselineScore: null,
      gate: null,
    };
  };
}
