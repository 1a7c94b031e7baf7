import type { GateDecision } from "@tfgrpo/protocol";
import type { OnlineDecisionKind } from "./learner-snapshot.js";
import type { OnlineConfig } from "./online-config.js";
import type { CanaryEvidence, CanaryVerdict } from "./sequential-canary.js";

/** Which rule decided, on the stored decision's `details.rule`: typed, never read from the reason's wording. */
export type OnlineDecisionRule =
  | "sequential"
  | "deadline"
  | "budget"
  | "session-end"
  | "futility"
  | "abandoned"
  | "voided";

/** One decision on a proposed version, as the decision writer stores, records and emits it. */
export interface OnlineDecision {
  kind: OnlineDecisionKind;
  version: number;
  parent: number | null;
  state: "committed" | "rejected";
  decision: GateDecision;
}

const name = (version: number | null) => (version === null ? "the empty library" : `v${version}`);
const show = (value: number | null) => (value === null ? "n/a" : value.toFixed(3));

function base(evidence: CanaryEvidence | null): Omit<GateDecision, "decision" | "reason" | "details"> {
  return {
    candidateScore: evidence?.canaryRate ?? null,
    headScore: evidence?.headRate ?? null,
    margin: 0,
    // The stored decision's schema is the offline gate's; the sequential test's boundary between its two hypotheses
    // is at no difference, i.e. a candidate is kept when not worse, hence this mode (the rule is `details.rule`).
    mode: "not-worse-within-tolerance",
    tasks: evidence?.canaryOutcomes ?? 0,
    stage: evidence === null ? "none" : "full",
  };
}

/** The numbers of a canary's test, as they are stored on its decision. */
function evidenceDetails(evidence: CanaryEvidence) {
  return {
    canaryOutcomes: evidence.canaryOutcomes,
    headOutcomes: evidence.headOutcomes,
    estimate: evidence.estimate,
    information: evidence.information,
    logLikelihoodRatio: evidence.logLikelihoodRatio,
    commitAt: evidence.commitAt,
    rejectAt: evidence.rejectAt,
    strata: evidence.strata,
  };
}

/** The sequential test's verdict on a canary as a stored decision (commit, reject, or inconclusive and why). */
export function canaryDecision(
  canary: { version: number; parent: number | null; deadlineAt: string },
  verdict: Exclude<CanaryVerdict, { kind: "continue" }>,
  rollout: Pick<OnlineConfig["rollout"], "harm" | "alpha" | "beta" | "canaryOutcomes">,
): OnlineDecision {
  const e = verdict.evidence;
  const numbers =
    `canary ${show(e.canaryRate)} of ${e.canaryOutcomes} vs head ${show(e.headRate)} of ${e.headOutcomes}, ` +
    `stratified difference ${show(e.estimate)} over ${e.strata.filter((s) => s.information > 0).length} strata, ` +
    `ln LR ${show(e.logLikelihoodRatio)} (commit at ${show(e.commitAt)}, reject at ${show(e.rejectAt)}; ` +
    `+${rollout.harm} against -${rollout.harm}, alpha ${rollout.alpha}, beta ${rollout.beta})`;
  const ids = { candidateVersion: canary.version, headVersion: canary.parent };
  if (verdict.kind !== "inconclusive") {
    const commit = verdict.kind === "commit";
    return {
      kind: "gate",
      version: canary.version,
      parent: canary.parent,
      state: commit ? "committed" : "rejected",
      decision: {
        ...base(e),
        decision: commit ? "commit" : "reject",
        reason: `${commit ? "committed" : "rejected"} by the sequential canary test: ${numbers}`,
        details: { rule: "sequential" satisfies OnlineDecisionRule, ...ids, ...evidenceDetails(e) },
      },
    };
  }
  const why = {
    deadline: `no decision by its deadline ${canary.deadlineAt}`,
    budget: `no decision within its ${rollout.canaryOutcomes} canary outcomes`,
    "session-end": "no decision when the session ended",
    futility: `no decision after ${e.canaryOutcomes} canary outcomes, leaning no better than the head, when a reflection fell due (stopped for futility)`,
  }[verdict.rule];
  return {
    kind: "inconclusive",
    version: canary.version,
    parent: canary.parent,
    state: "rejected",
    decision: {
      ...base(e),
      decision: "inconclusive",
      reason: `inconclusive: canary v${canary.version} had ${why}: ${numbers}`,
      details: { rule: verdict.rule satisfies OnlineDecisionRule, ...ids, ...evidenceDetails(e) },
    },
  };
}

/** A rejection no canary measured: no evidence, the rule (its kind) and the versions in its details. */
function unmeasuredRejection(
  kind: "abandoned" | "voided",
  version: number,
  parent: number | null,
  reason: string,
  details: Record<string, unknown> = {},
): OnlineDecision {
  return {
    kind,
    version,
    parent,
    state: "rejected",
    decision: {
      ...base(null),
      decision: "reject",
      reason,
      details: {
        rule: kind satisfies OnlineDecisionRule,
        candidateVersion: version,
        headVersion: parent,
        ...details,
      },
    },
  };
}

/** A proposed version no canary will decide (no longer proposed, its parent moved, its learner stopped). */
export function abandonedDecision(version: number, parent: number | null, why: string): OnlineDecision {
  return unmeasuredRejection("abandoned", version, parent, `abandoned: ${why}`);
}

/** A canary whose parent was just rolled back: it was measured against a version that no longer serves. */
export function voidedDecision(version: number, parent: number, restoredAs: number): OnlineDecision {
  return unmeasuredRejection(
    "voided",
    version,
    parent,
    `voided: its parent ${name(parent)} was rolled back (restored as v${restoredAs}) before the canary finished`,
    { restoredAs },
  );
}
