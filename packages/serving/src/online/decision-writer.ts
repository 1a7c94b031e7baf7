import { type Bus, curatorDecide, curatorRestore } from "@tfgrpo/protocol";
import type { OnlineDecisionRecord } from "./learner-snapshot.js";
import type { OnlineDecision } from "./online-decision.js";
import type { OnlineEvent } from "./online-events.js";
import type { RollbackCheck } from "./rollback-rule.js";

const maxDecisions = 20;

export interface DecisionWriter {
  /** The last decisions, newest last (the snapshot's). */
  readonly decisions: OnlineDecisionRecord[];
  /** Stores a decision through the curator, records it and emits its gate event. */
  decide(decision: OnlineDecision, out: OnlineEvent[]): Promise<void>;
  /** Restores `to` through the curator in place of `from`, records the rollback and emits it; returns the new head. */
  rollback(
    input: { from: number; to: number | null; message: string; check: RollbackCheck; margin: number },
    out: OnlineEvent[],
  ): Promise<number>;
}

/**
 * The one path by which the online learner's decisions reach the library: every decision (a canary's test, an
 * abandoned, voided or inconclusive canary, a head rolled back) is a curator request over the Bus, as offline, then
 * recorded in the learner's state and emitted as one event.
 */
export function createDecisionWriter(deps: {
  bus: Bus;
  domain: string;
  runId: string;
  now: () => Date;
  /** Outcomes observed so far: the `at` of records and events. */
  observed: () => number;
  emit: (event: OnlineEvent, out: OnlineEvent[]) => void;
}): DecisionWriter {
  const decisions: OnlineDecisionRecord[] = [];
  const record = (entry: Omit<OnlineDecisionRecord, "at" | "time">) => {
    decisions.push({ at: deps.observed(), time: deps.now().toISOString(), ...entry });
    if (decisions.length > maxDecisions) decisions.splice(0, decisions.length - maxDecisions);
  };
  return {
    decisions,
    async decide(decision, out) {
      const stored = await deps.bus.request(curatorDecide, {
        domain: deps.domain,
        version: decision.version,
        state: decision.state,
        decision: decision.decision,
      });
      record({
        kind: decision.kind,
        version: decision.version,
        decision: stored.decision,
        reason: stored.reason,
      });
      deps.emit(
        {
          type: "gate",
          kind: decision.kind,
          at: deps.observed(),
          version: decision.version,
          headVersion: decision.parent,
          decision: stored,
        },
        out,
      );
    },
    async rollback(input, out) {
      const restored = await deps.bus.request(curatorRestore, {
        domain: deps.domain,
        from: input.from,
        to: input.to,
        runId: deps.runId,
        message: input.message,
      });
      record({ kind: "rollback", version: input.from, decision: "rollback", reason: input.message });
      deps.emit(
        {
          type: "rollback",
          at: deps.observed(),
          stage: "head",
          from: input.from,
          to: input.to,
          restoredAs: restored.version,
          servedRate: input.check.servedRate!,
          referenceRate: input.check.referenceRate!,
          margin: input.margin,
          window: input.check.window,
        },
        out,
      );
      return restored.version;
    },
  };
}
