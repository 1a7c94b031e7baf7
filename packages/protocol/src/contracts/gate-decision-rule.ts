import { z } from "zod";
import type { GateDecision } from "../schemas/library-version.js";

/**
 * Why a gate decision was made when it was not the paired scores alone: a typed kind in `details.rule`, which code
 * reads instead of the decision's `reason` (a sentence for people, free to be reworded).
 * - `stale-parent`: a winning candidate rejected because another version was committed since it was proposed;
 * - `abandoned`, `deadline`, `rollback`: the online learner's canary outcomes (docs/online-learning.md).
 */
export const gateDecisionRules = {
  staleParent: "stale-parent",
  abandoned: "abandoned",
  deadline: "deadline",
  rollback: "rollback",
} as const;

export const gateDecisionRuleSchema = z.enum([
  gateDecisionRules.staleParent,
  gateDecisionRules.abandoned,
  gateDecisionRules.deadline,
  gateDecisionRules.rollback,
]);
export type GateDecisionRule = z.infer<typeof gateDecisionRuleSchema>;

/** The decision's typed rule, or undefined when the scores alone decided (or the rule is one this copy does not know). */
export function gateDecisionRule(decision: Pick<GateDecision, "details">): GateDecisionRule | undefined {
  const parsed = gateDecisionRuleSchema.safeParse(decision.details?.rule);
  return parsed.success ? parsed.data : undefined;
}
