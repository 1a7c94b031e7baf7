import type { LibraryStore } from "@tfgrpo/store";
import type { CanaryRun } from "./canary-run.js";
import type { DecisionWriter } from "./decision-writer.js";
import { observeProbation, type Probation } from "./head-probation.js";
import type { OnlineConfig } from "./online-config.js";
import { abandonedDecision, canaryDecision, voidedDecision } from "./online-decision.js";
import type { OnlineEvent } from "./online-events.js";
import { rollbackMessage } from "./rollback-rule.js";
import { canaryEvidence, decideCanary, futile } from "./sequential-canary.js";

/** What the learner's steps read and move: the head it serves, the canary out, the head on probation. */
export interface LoopState {
  head: number | null;
  canary: CanaryRun | null;
  probation: Probation | null;
}

export interface StepDeps {
  store: Pick<LibraryStore, "getHeadVersion">;
  domain: string;
  writer: DecisionWriter;
  now: () => Date;
  rollout: () => OnlineConfig["rollout"];
}

const name = (version: number | null) => (version === null ? "(the empty library)" : `v${version}`);

/**
 * The canary's sequential test now; a verdict is written only after checking that the canary's parent is still the
 * head (another writer may have moved it: then its comparison no longer holds and it is abandoned). A commit puts the
 * new head on probation against its predecessor's outcomes during the canary.
 */
export async function settleCanary(
  deps: StepDeps,
  state: LoopState,
  out: OnlineEvent[],
  ending = false,
): Promise<void> {
  const current = state.canary;
  if (current === null) return;
  const rollout = deps.rollout();
  const verdict = decideCanary(
    {
      canary: current.outcomes,
      head: current.headOutcomes,
      now: deps.now(),
      deadlineAt: current.deadlineAt,
      ending,
    },
    rollout,
  );
  if (verdict.kind === "continue") {
    current.share = verdict.share;
    return;
  }
  if (!(await endCanary(deps, state, current, out))) return;
  const decision = canaryDecision(current, verdict, rollout);
  await deps.writer.decide(decision, out);
  if (decision.state !== "committed") return;
  state.head = current.version;
  state.probation = {
    previous: current.parent,
    versions: [current.version],
    served: [],
    reference: current.headOutcomes.map((o) => o.success),
  };
}

/**
 * Takes the canary out before its verdict is written, after checking that its parent is still the head (another
 * writer may have moved it: then its comparison no longer holds, it is written abandoned and false is returned).
 */
async function endCanary(
  deps: StepDeps,
  state: LoopState,
  current: CanaryRun,
  out: OnlineEvent[],
): Promise<boolean> {
  state.canary = null;
  const head = await deps.store.getHeadVersion(deps.domain);
  if (head === current.parent) return true;
  const why = `its parent ${name(current.parent)} is no longer the head (now ${head === null ? "empty" : `v${head}`})`;
  await deps.writer.decide(abandonedDecision(current.version, current.parent, why), out);
  state.head = head;
  return false;
}

/**
 * One outcome for the head's probation; on a rollback the head as it is now is undone (never someone else's newer
 * write), and a canary measured against it is voided, each through the decision writer.
 */
export async function probationStep(
  deps: StepDeps,
  state: LoopState,
  outcome: { version: number | null; success: boolean },
  out: OnlineEvent[],
): Promise<void> {
  const rollout = deps.rollout();
  const step = observeProbation(state.probation, outcome, rollout);
  state.probation = step.probation;
  if (step.kind !== "rollback") return;
  state.probation = null;
  const from = await deps.store.getHeadVersion(deps.domain);
  if (from === null || !step.probation.versions.includes(from)) {
    state.head = from;
    return;
  }
  const to = step.probation.previous;
  const margin = rollout.rollbackMargin;
  const message = rollbackMessage(from, to, step.check, step.probation.reference.length, margin);
  state.head = await deps.writer.rollback({ from, to, message, check: step.check, margin }, out);
  const voided = state.canary;
  state.canary = null;
  if (voided !== null) await deps.writer.decide(voidedDecision(voided.version, from, state.head), out);
}

/**
 * A reflection fell due while a canary runs. Once the canary has had `futilityAfter` outcomes and its stratified
 * estimate is no better than the head (at or below zero), it stops there for futility: decided inconclusive (rule
 * `futility`, its evidence stored), so the reflection can make the next candidate now. A canary that leans better runs
 * on to its test's decision. Stopping early only ever drops a candidate, never commits one: the chance of committing
 * a harmful candidate stays the test's alpha; one `harm` better is dropped somewhat more often than the test's beta.
 * Returns whether the canary was stopped.
 */
export async function stopForFutility(
  deps: StepDeps,
  state: LoopState,
  out: OnlineEvent[],
): Promise<boolean> {
  const current = state.canary;
  if (current === null) return false;
  const rollout = deps.rollout();
  const evidence = canaryEvidence(current.outcomes, current.headOutcomes, rollout);
  if (!futile(evidence, rollout)) return false;
  if (!(await endCanary(deps, state, current, out))) return true;
  await deps.writer.decide(
    canaryDecision(current, { kind: "inconclusive", rule: "futility", evidence }, rollout),
    out,
  );
  return true;
}
