import type { Operation, UsageTotals } from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import { z } from "zod";
import type { StepRecord } from "./step-record.js";

/**
 * What one step's learning cost, and where that money went. A step's reflection cost is every critic and curator
 * call it made (rewards, summaries, advantages, consolidation, conflict checks: the change in those roles' running
 * totals over the step). Each proposal carries the cost of the critic call that made it (its group's call, shared by
 * the group's proposals). When the gate commits the step's candidate, the step's cost is shared equally by the
 * candidate's operations, and each operation's share goes to the library entry it wrote (a merge's share to the
 * merged entry); otherwise the whole step's cost was spent on proposals that were dropped. Per step, entry shares
 * plus the dropped cost equal the step's critic and curator cost, so over a run they add up to those roles' totals.
 */
export const lessonCostsSchema = z.object({
  step: z.number().int().positive(),
  criticUsd: z.number().nonnegative(),
  curatorUsd: z.number().nonnegative(),
  /** The committed version that carried this step's lessons, or null (rejected, inconclusive, nothing to change). */
  committedVersion: z.number().int().nonnegative().nullable(),
  proposals: z.array(
    z.object({
      proposalId: z.string(),
      groupId: z.string(),
      op: z.string(),
      costUsd: z.number().nonnegative(),
    }),
  ),
  entries: z.array(z.object({ id: z.string(), op: z.string(), costUsd: z.number().nonnegative() })),
  droppedUsd: z.number().nonnegative(),
});
export type LessonCosts = z.infer<typeof lessonCostsSchema>;

export interface StepLessonInput {
  step: number;
  domain: string;
  record: StepRecord;
  previous: StepRecord | undefined;
  /** The step's candidate and whether the gate committed it. */
  candidateVersion: number | null;
  committed: boolean;
  /** The critic's answers of the step's groups: their proposals and the usage of the call that made them. */
  advice: ReadonlyArray<{
    groupId: string;
    proposals: ReadonlyArray<{ proposalId: string; op: string }>;
    usage?: UsageTotals | undefined;
  }>;
}

export async function stepLessonCosts(store: Pick<Store, "getVersionInfo" | "diff">, input: StepLessonInput) {
  const spent = (role: "critic" | "curator") =>
    Math.max(
      0,
      (input.record.usageByRole[role]?.costUsd ?? 0) - (input.previous?.usageByRole[role]?.costUsd ?? 0),
    );
  const criticUsd = spent("critic");
  const curatorUsd = spent("curator");
  const proposals = input.advice.flatMap((advice) =>
    advice.proposals.map((proposal) => ({
      proposalId: proposal.proposalId,
      groupId: advice.groupId,
      op: proposal.op,
      costUsd: (advice.usage?.costUsd ?? 0) / advice.proposals.length,
    })),
  );
  const total = criticUsd + curatorUsd;
  const written =
    input.committed && input.candidateVersion !== null
      ? await writtenEntries(store, input.domain, input.candidateVersion)
      : [];
  const share = written.length === 0 ? 0 : total / written.length;
  return lessonCostsSchema.parse({
    step: input.step,
    criticUsd,
    curatorUsd,
    committedVersion: written.length === 0 ? null : input.candidateVersion,
    proposals,
    entries: written.map((entry) => ({ ...entry, costUsd: share })),
    droppedUsd: written.length === 0 ? total : 0,
  });
}

/** Each operation of a version with the entry it wrote: created ids (add, merge) come in operation order. */
async function writtenEntries(
  store: Pick<Store, "getVersionInfo" | "diff">,
  domain: string,
  version: number,
): Promise<Array<{ id: string; op: Operation["op"] }>> {
  const info = await store.getVersionInfo(domain, version);
  if (!info) return [];
  const diff = await store.diff(domain, info.parent, version);
  const created = diff.added.map((change) => change.id).sort((a, b) => idNumber(a) - idNumber(b));
  let next = 0;
  const written: Array<{ id: string; op: Operation["op"] }> = [];
  for (const op of info.ops) {
    if (op.op === "keep") continue;
    const id = op.op === "add" || op.op === "merge" ? created[next++] : op.id;
    if (id !== undefined) written.push({ id, op: op.op });
  }
  return written;
}

function idNumber(id: string): number {
  return Number(id.replace(/^\D+/, ""));
}

/** An entry's learning cost summed over the steps (of any run) that wrote it. */
export function costsByEntry(
  records: readonly LessonCosts[],
): Map<string, { costUsd: number; steps: number }> {
  const byEntry = new Map<string, { costUsd: number; steps: number }>();
  for (const record of records) {
    for (const entry of record.entries) {
      const sum = byEntry.get(entry.id) ?? { costUsd: 0, steps: 0 };
      sum.costUsd += entry.costUsd;
      sum.steps += 1;
      byEntry.set(entry.id, sum);
    }
  }
  return byEntry;
}
