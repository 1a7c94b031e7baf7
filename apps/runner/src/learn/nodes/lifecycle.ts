import { curatorLifecycle, TfgrpoError } from "@tfgrpo/protocol";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";

/**
 * Lifecycle moves (candidate -> active, active -> probation -> archived...) follow the evidence just credited. They
 * are bookkeeping on measured stats, committed directly as a new head; new content still waits for the gate.
 */
export function lifecycle({ bus, store, runId, domain, runState, log }: LearnDependencies) {
  const requestMoves = (version: number) =>
    bus.request(curatorLifecycle, { domain, version, state: "committed", runId });
  return async (state: { step: number; headVersion: number | null }) => {
    if (state.headVersion === null) return {};
    const entry = runStateKeys.lifecycle(state.step);
    let moved = await runState.get(entry);
    let head: number = state.headVersion;
    if (!moved) {
      let reply: Awaited<ReturnType<typeof requestMoves>>;
      for (let attempt = 1; ; attempt++) {
        try {
          reply = await requestMoves(head);
          break;
        } catch (error) {
          // Another runner committed to the library since the step began: the moves follow the shared stats, so they
          // are decided again on the new head.
          const current = await store.getHeadVersion(domain);
          if (!TfgrpoError.hasCode(error, "conflict") || current === head || attempt >= 5) throw error;
          log(
            `step ${state.step}: lifecycle: the head moved from v${head} to v${current} (another writer): again on v${current}`,
          );
          if (current === null) return {};
          head = current;
        }
      }
      for (const t of reply.transitions)
        log(`step ${state.step}: lifecycle ${t.id} ${t.from} -> ${t.to}: ${t.reason}`);
      moved = { version: reply.version };
      await runState.put(entry, moved);
    }
    return { headVersion: moved.version ?? head };
  };
}
