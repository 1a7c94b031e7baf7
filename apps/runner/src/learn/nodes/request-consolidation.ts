import { curatorConsolidate, type Proposal } from "@tfgrpo/protocol";
import type { z } from "zod";
import { leakageReference } from "../leakage-reference.js";
import { recordRoleUsage } from "../record-role-usage.js";
import type { consolidationOutcomeSchema } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/** What a consolidation left, as the run state keeps it (`consolidationOutcomeSchema`). */
export type ConsolidationOutcome = z.infer<typeof consolidationOutcomeSchema>;

/**
 * The one consolidation request of a learning step: the step's proposals onto a base version, with the run's
 * leakage fingerprints by reference (a lesson must not carry an answer or a question it was learned from: the curator
 * refuses it). Both paths that consolidate use it: the step's first candidate (`consolidate.ts`) and the candidate
 * again after another writer moved the head (`head-moved.ts`). The curator's notes are logged and its model usage
 * recorded under `usageId` (recording again is a no-op).
 */
export async function requestConsolidation(
  deps: LearnDependencies,
  request: { step: number; baseVersion: number | null; proposals: Proposal[]; usageId: string },
): Promise<ConsolidationOutcome> {
  const { bus, store, runId, domain, log } = deps;
  const reply = await bus.request(curatorConsolidate, {
    runId,
    domain,
    baseVersion: request.baseVersion,
    proposals: request.proposals,
    leakage: await leakageReference(deps),
  });
  for (const note of reply.notes) log(`step ${request.step}: curator: ${note}`);
  if (reply.usage && reply.usage.calls > 0)
    await recordRoleUsage(store, runId, request.usageId, "curator", reply.usage);
  return {
    version: reply.version,
    operations: reply.operations.length,
    ...(reply.refused?.length ? { leaked: reply.refused.length } : {}),
  };
}
