import { curatorLifecycle } from "@tfgrpo/protocol";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * Lifecycle moves (candidate -> active, active -> probation -> archived...) follow the evidence just credited. They
 * are bookkeeping on measured stats, committed directly as a new head; new content still waits for the gate.
 */
export function lifecycle({ bus, runId, domain, runState, log }: LearnDependencies) {
  return async (state: { step: number; headVersion: number | null }) => {
    if (state.headVersion === null) return {};
    const entry = runStateKeys.lifecycle(state.step);
    let moved = await runState.get(entry);
    if (!moved) {
      const reply = await bus.request(curatorLifecycle, {
        domain,
        version: state.headVersion,
        state: "committed",
        runId,
      });
      for (const t of reply.transitions)
        log(`step ${state.step}: lifecycle ${t.id} ${t.from} -> ${t.to}: ${t.reason}`);
      moved = { version: reply.version };
      await runState.put(entry, moved);
    }
    return { headVersion: moved.version ?? state.headVersion };
  };
}
