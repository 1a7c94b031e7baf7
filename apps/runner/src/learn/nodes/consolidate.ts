import { curatorConsolidate } from "@tfgrpo/protocol";
import { leakageReference } from "../leakage-reference.js";
import { recordRoleUsage } from "../record-role-usage.js";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * The curator turns the step's proposals into one candidate version (merge/modify/delete, short entries, conflict
 * check): proposed, not committed. Its outcome is kept, so a resumed step never applies the operations twice.
 */
export function consolidate(deps: LearnDependencies) {
  const { bus, store, runId, domain, runState, log } = deps;
  return async (state: { step: number; headVersion: number | null; proposals: number }) => {
    const entry = runStateKeys.consolidation(state.step);
    let outcome = await runState.get(entry);
    if (!outcome) {
      const proposals = (await runState.get(runStateKeys.proposals(state.step))) ?? [];
      if (proposals.length === 0) {
        outcome = { version: null, operations: 0 };
      } else {
        const reply = await bus.request(curatorConsolidate, {
          runId,
          domain,
          baseVersion: state.headVersion,
          proposals,
          // Every answer and question the run knows, by reference: a lesson must not carry them (the curator
          // refuses it).
          leakage: await leakageReference(deps),
        });
        for (const note of reply.notes) log(`step ${state.step}: curator: ${note}`);
        if (reply.usage && reply.usage.calls > 0)
          await recordRoleUsage(store, runId, entry.key, "curator", reply.usage);
        outcome = {
          version: reply.version,
          operations: reply.operations.length,
          ...(reply.refused?.length ? { leaked: reply.refused.length } : {}),
        };
      }
      await runState.put(entry, outcome);
    }
    log(
      `step ${state.step}: ${state.proposals} proposal(s) -> ${outcome.operations} operation(s)${outcome.leaked ? ` (${outcome.leaked} refused for leakage)` : ""}${outcome.version === null ? ", no new version" : `, candidate v${outcome.version}`}`,
    );
    return { candidateVersion: outcome.version, operations: outcome.operations };
  };
}
