import { curatorLifecycle } from "@tfgrpo/protocol";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * The run's closing look: after the last step, the lifecycle acts once more on the credit the run gathered, with the
 * run's sequential tests at their levels, now knowing that no step follows (`closing`: a candidate whose harm the
 * archive's test establishes is dropped with the groups any bound needs instead of waiting for twice that; an active
 * entry that the demotion's test finds harmful goes to probation as at every step). Its moves are committed
 * directly, as every lifecycle move is: a removal on an established harm, not new content for the gate to judge
 * (docs/curator.md, "The closing look"). Done once: a resumed run reads what it decided.
 */
export function closeRun({ bus, runId, domain, runState, log }: LearnDependencies) {
  return async (state: { headVersion: number | null; stoppedBy: string | null }) => {
    const entry = runStateKeys.closing();
    const stored = await runState.get(entry);
    if (stored) return { headVersion: stored.version ?? state.headVersion };
    if (state.headVersion === null) {
      await runState.put(entry, { headBefore: null, version: null, transitions: [] });
      return {};
    }
    const reply = await bus.request(curatorLifecycle, {
      domain,
      version: state.headVersion,
      state: "committed",
      runId,
      closing: true,
    });
    for (const t of reply.transitions) log(`end of run: lifecycle ${t.id} ${t.from} -> ${t.to}: ${t.reason}`);
    if (reply.transitions.length === 0)
      log(`end of run: lifecycle: no entry of v${state.headVersion} has the evidence for a move`);
    await runState.put(entry, {
      headBefore: state.headVersion,
      version: reply.version,
      transitions: reply.transitions,
    });
    return { headVersion: reply.version ?? state.headVersion };
  };
}
