import type { OnlineConfig } from "./online-config.js";
import { checkRollback, type RollbackCheck } from "./rollback-rule.js";

/** A promoted head on probation: its outcomes since the promotion against its predecessor's during the canary. */
export interface Probation {
  /** The version it replaced (null: the empty library). */
  previous: number | null;
  /** The promoted version and the lifecycle versions written on it since. */
  versions: number[];
  reference: boolean[];
  served: boolean[];
}

export type ProbationStep =
  /** The outcome was not the head's on probation: nothing changed. */
  | { kind: "ignored"; probation: Probation | null }
  | { kind: "watching"; probation: Probation; check: RollbackCheck }
  /** Its last window passed: probation ends (later drops are drift, for reflection to answer). */
  | { kind: "ended"; probation: null; check: RollbackCheck }
  /** Worse than its predecessor with confidence: roll back to `probation.previous`. */
  | { kind: "rollback"; probation: Probation; check: RollbackCheck };

/**
 * The head-probation check, a pure function of the probation, one outcome and the settings: each time the promoted
 * version completes a window of `rollbackWindow` outcomes (with at least `minReference` of its predecessor's), the
 * one-sided Welch test of the rollback rule (`checkRollback`, alpha split over `probationWindows` looks) asks whether
 * it is worse than its predecessor by more than `rollbackMargin`; after `probationWindows` windows it ends.
 */
export function observeProbation(
  probation: Probation | null,
  outcome: { version: number | null; success: boolean },
  rollout: Pick<
    OnlineConfig["rollout"],
    "rollbackWindow" | "probationWindows" | "minReference" | "alpha" | "rollbackMargin"
  >,
): ProbationStep {
  if (probation === null || outcome.version === null || !probation.versions.includes(outcome.version))
    return { kind: "ignored", probation };
  const next: Probation = { ...probation, served: [...probation.served, outcome.success] };
  const check = checkRollback({
    served: next.served,
    reference: next.reference,
    window: rollout.rollbackWindow,
    looks: rollout.probationWindows,
    minReference: rollout.minReference,
    alpha: rollout.alpha,
    margin: rollout.rollbackMargin,
  });
  if (check.rollback) return { kind: "rollback", probation: next, check };
  if (next.served.length >= rollout.rollbackWindow * rollout.probationWindows)
    return { kind: "ended", probation: null, check };
  return { kind: "watching", probation: next, check };
}
