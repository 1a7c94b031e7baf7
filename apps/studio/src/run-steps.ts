import { z } from "zod";

const count = z.number().int().nonnegative();
const version = count.nullable();

/**
 * The columns of a learning run's step record (kept by the runner in the run's state area under `step/N`) that the
 * studio shows. Read leniently: a record that does not parse is skipped, never shown half-read.
 */
export const stepRowSchema = z.object({
  epoch: count,
  step: count,
  tasks: count,
  rollouts: count,
  trainReward: z.number(),
  groups: count,
  skippedGroups: count,
  proposals: count,
  operations: count,
  headBefore: version,
  candidateVersion: version,
  headAfter: version,
  librarySize: count,
  candidateScore: z.number().nullable(),
  headScore: z.number().nullable(),
  decision: z.string(),
  gateReason: z.string(),
});
export type StepRow = z.infer<typeof stepRowSchema>;

export interface RunStateReader {
  listRunStateKeys(runId: string): Promise<string[]>;
  getRunState(runId: string, key: string): Promise<unknown>;
}

/** A run's step rows in step order. */
export async function readStepRows(store: RunStateReader, runId: string): Promise<StepRow[]> {
  const rows: StepRow[] = [];
  for (const key of await store.listRunStateKeys(runId)) {
    if (!key.startsWith("step/")) continue;
    const parsed = stepRowSchema.safeParse(await store.getRunState(runId, key));
    if (parsed.success) rows.push(parsed.data);
  }
  return rows.sort((a, b) => a.epoch - b.epoch || a.step - b.step);
}
