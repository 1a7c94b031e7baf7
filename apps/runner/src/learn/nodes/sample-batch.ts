import { seededRandom, seedFrom } from "@tfgrpo/protocol";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * Picks the next batch of training tasks, or ends the run when its budget is spent. Each epoch visits the train set
 * in its own seeded order, batch by batch.
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
}: LearnDependencies) {
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
    const order = shuffled(
      train.map((task) => task.id),
      seedFrom(options.seed, "epoch", state.epoch),
    );
    const batchTaskIds = order.slice(state.batchIndex * batchSize, (state.batchIndex + 1) * batchSize);
    const step = state.step + 1;
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

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
