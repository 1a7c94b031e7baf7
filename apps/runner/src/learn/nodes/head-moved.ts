import { type GateDecision, gateDecisionRule, gateDecisionRules, TfgrpoError } from "@tfgrpo/protocol";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { requestConsolidation } from "./request-consolidation.js";

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
  const { domain, runState, options, log } = deps;
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
  // The same request as the step's first consolidation: the proposals are screened again on the new head.
  const outcome = await requestConsolidation(deps, {
    step,
    baseVersion: moved.to,
    proposals,
    usageId: `${runStateKeys.consolidation(step).key}/on-v${moved.to ?? 0}-after-v${moved.candidate}`,
  });
  log(
    `step ${step}: ${proposals.length} proposal(s) on ${name(moved.to)} -> ${outcome.operations} operation(s)${outcome.leaked ? ` (${outcome.leaked} refused for leakage)` : ""}${outcome.version === null ? ", no new version" : `, candidate v${outcome.version}`}`,
  );
  return { candidateVersion: outcome.version, operations: outcome.operations };
}

/** The curator's gate rejected a winning candidate because another version was committed since it was proposed. */
export function rejectedAsStale(gate: GateDecision): boolean {
  return gate.decision === "reject" && gateDecisionRule(gate) === gateDecisionRules.staleParent;
}
