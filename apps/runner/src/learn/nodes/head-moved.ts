import {
  curatorConsolidate,
  type GateDecision,
  gateDecisionRule,
  gateDecisionRules,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { leakageReference } from "../leakage-reference.js";
import { recordRoleUsage } from "../record-role-usage.js";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * Several runners may learn the same library at once (a shared PostgreSQL store): while one validates its candidate,
 * another may commit. A candidate is only ever committed on the head it was compared with, so when the head moved
 * the step either stops (`--on-conflict stop`, a clear `conflict`) or re-validates: the curator consolidates the step's
 * proposals again onto the new head (ids they name may have changed there) and the new candidate is validated against
 * the new head. The lineage stays linear: every commit's parent is the head it was validated against.
 */
export async function candidateOnNewHead(
  deps: LearnDependencies,
  step: number,
  moved: { from: number | null; to: number | null; candidate: number },
): Promise<{ candidateVersion: number | null; operations: number }> {
  const { bus, store, runId, domain, runState, options, log } = deps;
  const name = (v: number | null) => (v === null ? "the empty library" : `v${v}`);
  const what = `step ${step}: library ${domain} moved from ${name(moved.from)} to ${name(moved.to)} (another writer committed) while candidate v${moved.candidate}, based on ${name(moved.from)}, was validated`;
  if (options.onConflict === "stop") {
    throw new TfgrpoError(
      "conflict",
      `${what}; stopping (--on-conflict revalidate would re-validate the candidate on the new head)`,
      { details: { domain, step, from: moved.from, to: moved.to, candidate: moved.candidate } },
    );
  }
  log(`${what}: re-validating the step's proposals on ${name(moved.to)}`);
  const proposals = (await runState.get(runStateKeys.proposals(step))) ?? [];
  if (proposals.length === 0) return { candidateVersion: null, operations: 0 };
  // The same leakage check as the step's first consolidation: the proposals are screened again on the new head.
  const reply = await bus.request(curatorConsolidate, {
    runId,
    domain,
    baseVersion: moved.to,
    proposals,
    leakage: await leakageReference(deps),
  });
  for (const note of reply.notes) log(`step ${step}: curator: ${note}`);
  if (reply.usage && reply.usage.calls > 0) {
    const key = `${runStateKeys.consolidation(step).key}/on-v${moved.to ?? 0}-after-v${moved.candidate}`;
    await recordRoleUsage(store, runId, key, "curator", reply.usage);
  }
  log(
    `step ${step}: ${proposals.length} proposal(s) on ${name(moved.to)} -> ${reply.operations.length} operation(s)${reply.version === null ? ", no new version" : `, candidate v${reply.version}`}`,
  );
  return { candidateVersion: reply.version, operations: reply.operations.length };
}

/** The curator's gate rejected a winning candidate because another version was committed since it was proposed. */
export function rejectedAsStale(gate: GateDecision): boolean {
  return gate.decision === "reject" && gateDecisionRule(gate) === gateDecisionRules.staleParent;
}
