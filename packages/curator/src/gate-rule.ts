import { type GateRule, gateRuleSchema } from "@tfgrpo/protocol";
import type { GateConfig } from "./acceptance-gate.js";

/**
 * The gate rules a learning run can ask for (`tfgrpo learn --gate`):
 * - sequential (the default): validation in rounds, decided as soon as two anytime-valid tests settle it;
 * - paired-t: one look at a fixed sample, a one-sided paired t test must rule out a loss of `harm`;
 * - paper: the paper's "keep unless worse" (commit when the candidate's mean is at least the head's, ties commit),
 *   at a fixed sample, with no test.
 */
export const gateRules: readonly GateRule[] = gateRuleSchema.options;

/** The curator's gate settings with the test the rule names (alpha, harm and the rest kept from the settings). */
export function gateConfigFor(config: GateConfig, rule: GateRule): GateConfig {
  const test = config.test ?? { kind: "sequential" as const, alpha: 0.05, harm: 0.1 };
  if (rule === "paper")
    return { ...config, mode: "better-by-margin", margin: 0, test: { ...test, kind: "none" } };
  return { ...config, test: { ...test, kind: rule } };
}
