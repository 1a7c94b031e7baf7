import { type DefineRoleOptions, defineRole, emptyUsageTotals, type RoleDefinition } from "@tfgrpo/protocol";
import type { Curator } from "./create-curator.js";

/**
 * The curator's Bus endpoints (`tfgrpo.curator.*`), all request/reply as the subject table says: each is one short
 * run of model calls and store writes, answered by any curator of the queue group.
 */
export function createCuratorRole(
  curator: Curator,
  options: DefineRoleOptions = {},
): RoleDefinition<"curator"> {
  return defineRole(
    "curator",
    {
      consolidate: async ({ leakage, ...input }) => {
        // Lessons that carry a task's answer or constants are refused before consolidation (leakage-check.ts),
        // checked against the run's fingerprints, which the request names and the store holds.
        const screened = leakage
          ? await curator.screenLeakage(input.proposals, leakage)
          : { kept: input.proposals, refused: [] };
        const refused = screened.refused.map(({ proposal, reason }) => ({
          proposalId: proposal.proposalId,
          reason,
        }));
        const leakNotes = refused.map(
          ({ proposalId, reason }) => `refused ${proposalId} (leakage): ${reason}`,
        );
        if (screened.kept.length === 0 && refused.length > 0)
          return { version: null, operations: [], notes: leakNotes, usage: emptyUsageTotals(), refused };
        const result = await curator.consolidate({ ...input, proposals: screened.kept });
        return {
          version: result.version,
          operations: result.operations,
          notes: [...leakNotes, ...result.notes],
          usage: result.usage,
          ...(leakage ? { refused } : {}),
        };
      },
      credit: (input) => curator.credit(input),
      gate: (input) => curator.gate(input),
      lifecycle: async (input) => {
        const result = await curator.updateLifecycle(input.domain, input.version, {
          ...(input.state ? { state: input.state } : {}),
          ...(input.runId ? { runId: input.runId } : {}),
          ...(input.closing ? { closing: true } : {}),
        });
        return {
          version: result.version,
          transitions: result.transitions.map(({ id, from, to, reason }) => ({ id, from, to, reason })),
        };
      },
      conflicts: async (input) => {
        const result = await curator.detectConflicts({
          domain: input.domain,
          ...(input.version !== undefined ? { version: input.version } : {}),
          ...(input.apply ? { apply: input.apply } : {}),
          ...(input.runId ? { runId: input.runId } : {}),
        });
        return {
          version: result.version,
          operations: result.operations,
          notes: result.notes,
          pairs: result.conflicts.pairs,
          usage: result.usage,
        };
      },
      merge: async (input) => {
        const result = await curator.mergeLibraries({
          from: input.from,
          into: input.into,
          ...(input.runId ? { runId: input.runId } : {}),
          ...(input.commit !== undefined ? { commit: input.commit } : {}),
        });
        return {
          version: result.version,
          committed: result.committed,
          imported: result.imported,
          operations: result.operations,
          notes: result.notes,
          usage: result.usage,
        };
      },
      decide: (input) => curator.recordDecision(input),
      restore: (input) => curator.restoreVersion(input),
    },
    options,
  );
}
