import { isHomogeneousGroup, seedFrom } from "@tfgrpo/protocol";
import { trainingGroupId } from "../rollouts.js";
import { runStateKeys } from "../run-state.js";
import { batchWithFailures, stratifiedOrderOf } from "../stratified-order.js";
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
  // What earlier steps left, folded in once: each step reads only the outcome of the one before it, so a step costs
  // the same at step 1000 as at step 10 (a resumed run folds the finished steps once).
  const failing = new Set<string>();
  let folded = 0;
  const outcomeOf = async (step: number) => {
    const stored = await runState.get(runStateKeys.batchOutcomes(step));
    if (stored) return stored;
    const rewards = new Map<string, number[]>();
    for (const trajectory of await store.listTrajectories({ runId, step })) {
      if (trajectory.reward === undefined || trajectory.reward === null) continue;
      if (trajectory.groupId !== trainingGroupId(runId, step, trajectory.taskId)) continue;
      const list = rewards.get(trajectory.taskId);
      if (list) list.push(trajectory.reward);
      else rewards.set(trajectory.taskId, [trajectory.reward]);
    }
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const ids = [...rewards.keys()].sort();
    const outcome = {
      failed: ids.filter((id) => mean(rewards.get(id)!) < 1),
      passed: ids.filter((id) => mean(rewards.get(id)!) >= 1),
      uniform: ids.filter((id) => isHomogeneousGroup(rewards.get(id)!)),
    };
    await runState.put(runStateKeys.batchOutcomes(step), outcome);
    return outcome;
  };
  // Tasks that gave a group of equal rewards, and tasks that ever gave a mixed one (or whose outcome predates the
  // record): a task in the first set and not the second has taught nothing so far.
  const uniformSeen = new Set<string>();
  const mixedSeen = new Set<string>();
  /** Folds the finished steps before `step` (each finished step's outcome is stored once). */
  const foldThrough = async (step: number): Promise<void> => {
    if (folded > step - 1) {
      failing.clear();
      uniformSeen.clear();
      mixedSeen.clear();
      folded = 0;
    }
    for (; folded < step - 1; folded++) {
      const outcome = await outcomeOf(folded + 1);
      for (const id of outcome.failed) failing.add(id);
      for (const id of outcome.passed) failing.delete(id);
      const uniform = new Set(outcome.uniform ?? []);
      for (const id of [...outcome.failed, ...outcome.passed]) {
        if (uniform.has(id)) uniformSeen.add(id);
        else mixedSeen.add(id);
      }
    }
  };
  /** Tasks whose latest group before `step` had mean reward below 1. */
  const earlierFailures = async (step: number): Promise<string[]> => {
    await foldThrough(step);
    return [...failing];
  };
  /**
   * Tasks of the batch that gave no mixed group in any earlier step (so no reflection and no nonzero contrast): they
   * still run, so every entry relevant to them keeps its groups, but with `settledTaskAttempts` attempts.
   */
  const settledOf = async (step: number, taskIds: readonly string[]): Promise<string[]> => {
    if (options.exposure !== "varied" || options.settledTaskAttempts === 0) return [];
    if (options.settledTaskAttempts >= options.groupSize) return [];
    await foldThrough(step);
    return taskIds.filter((id) => uniformSeen.has(id) && !mixedSeen.has(id));
  };
  // One epoch's order, computed when the epoch starts (linear in the pool), not at every step.
  let epochOrder: { epoch: number; order: string[] } | undefined;
  const orderOf = (epoch: number): string[] => {
    if (epochOrder?.epoch !== epoch)
      epochOrder = {
        epoch,
        order: stratifiedOrderOf(
          train.ids,
          stratifyField === null ? null : (index) => train.stratumOf(index),
          seedFrom(options.seed, "epoch", epoch),
        ),
      };
    return epochOrder.order;
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
    const order = orderOf(state.epoch);
    const slice = order.slice(state.batchIndex * batchSize, (state.batchIndex + 1) * batchSize);
    // With the whole train set in every batch, earlier failures are in it already.
    const batchTaskIds =
      options.failureShare > 0 && batchSize < train.size
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
    const settledTaskIds = await settledOf(step, batchTaskIds);
    const rollouts =
      settledTaskIds.length === 0
        ? `${batchTaskIds.length} tasks x ${options.groupSize} rollouts`
        : `${batchTaskIds.length - settledTaskIds.length} tasks x ${options.groupSize} rollouts, ${settledTaskIds.length} that taught nothing so far x ${options.settledTaskAttempts}`;
    log(
      `step ${step} (epoch ${state.epoch + 1}/${options.epochs}, batch ${state.batchIndex + 1}/${batchesPerEpoch}): ${rollouts}`,
    );
    return {
      step,
      batchTaskIds,
      settledTaskIds,
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
