import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { requestConsolidation } from "./request-consolidation.js";

/**
 * The curator turns the step's proposals into one candidate version (merge/modify/delete, short entries, conflict
 * check): proposed, not committed. Its outcome is kept, so a resumed step never applies the operations twice.
 */
export function consolidate(deps: LearnDependencies) {
  const { runState, log } = deps;
  return async (state: { step: number; headVersion: number | null; proposals: number }) => {
    const entry = runStateKeys.consolidation(state.step);
    let outcome = await runState.get(entry);
    if (!outcome) {
      const proposals = (await runState.get(runStateKeys.proposals(state.step))) ?? [];
      outcome =
        proposals.length === 0
          ? { version: null, operations: 0 }
          : await requestConsolidation(deps, {
              step: state.step,
              baseVersion: state.headVersion,
              proposals,
              usageId: entry.key,
            });
      await runState.put(entry, outcome);
    }
    log(
      `step ${state.step}: ${state.proposals} proposal(s) -> ${outcome.operations} operation(s)${outcome.leaked ? ` (${outcome.leaked} refused for leakage)` : ""}${outcome.version === null ? ", no new version" : `, candidate v${outcome.version}`}`,
    );
    return { candidateVersion: outcome.version, operations: outcome.operations };
  };
}
