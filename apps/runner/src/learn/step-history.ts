import { type RunStateStore, runStateKeys, runStateOf } from "./run-state.js";
import type { StepRecord } from "./step-record.js";

/**
 * A run's finished steps in order, from the run state: the graph's state never carries them (its checkpoint would
 * grow with every step), so the end-of-run table and a resumed run read them here.
 */
export async function stepHistory(store: RunStateStore, runId: string): Promise<StepRecord[]> {
  const records = await runStateOf(store, runId).list(runStateKeys.step);
  return records.sort((a, b) => a.step - b.step);
}
