import type { LearnDependencies } from "./nodes/learn-dependencies.js";
import { runStateKeys } from "./run-state.js";

/**
 * `--compact-trajectories-after N`: when step `step` finishes, the trajectories of steps more than N behind it are
 * compacted in the store (their text dropped; ids, rewards, usage and entries shown kept). Only the steps since the
 * last compaction are touched, so the work per step stays the same however long the run; the mark is written after
 * the store's compaction, which is safe to repeat if the step is resumed in between.
 */
export async function compactOldTrajectories(
  { store, runId, runState, options }: Pick<LearnDependencies, "store" | "runId" | "runState" | "options">,
  step: number,
): Promise<number> {
  const keep = options.compactTrajectoriesAfter;
  if (keep === undefined) return 0;
  const throughStep = step - keep;
  const mark = await runState.get(runStateKeys.compaction());
  const fromStep = mark === undefined ? 0 : mark.throughStep + 1;
  if (throughStep < fromStep) return 0;
  const compacted = await store.compactRunTrajectories(runId, { fromStep, throughStep });
  await runState.put(runStateKeys.compaction(), { throughStep });
  return compacted;
}
