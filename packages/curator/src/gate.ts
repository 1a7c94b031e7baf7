import { type GateDecision, type GateRule, gateDecisionRules, staleParentOf } from "@tfgrpo/protocol";
import { decideGate } from "./acceptance-gate.js";
import type { CuratorContext } from "./curator-context.js";
import { gateConfigFor } from "./gate-rule.js";
import type { ValidationRound } from "./sequential-gate.js";

export interface GateInput {
  domain: string;
  candidateVersion: number;
  headVersion: number | null;
  candidateScores: readonly number[];
  headScores: readonly number[];
  stage: "precheck" | "full";
  /** Samples behind each task's score, recorded with the decision. */
  samplesPerTask?: number;
  /**
   * Stage full: the pre-check decision that led to this full validation, as the pre-check call returned it. It is
   * stored with the final decision; the curator keeps nothing between the two calls, so any worker can take either.
   */
  precheck?: GateDecision;
  /** Sequential test: the validation so far, round by round (a non-final answer asks for another round). */
  rounds?: readonly ValidationRound[];
  /** Sequential test: the rounds the caller's validation budget allows. */
  maxRounds?: number;
  /** The rule the run asked for (`--gate`); absent: the curator's configured gate. */
  rule?: GateRule;
  /** Rounds with a fixed-sample rule configured: the samples per task it decides at (the run's `--val-k`). */
  fixedSamplesPerTask?: number;
}

/**
 * The acceptance gate on one candidate version: decides on the paired scores (`decideGate`) and records a final
 * decision on the version (committed or rejected). A passed pre-check writes nothing: it only says "run the full
 * validation"; nor does a sequential look that has not settled yet (the caller samples another round). A winning candidate whose parent is no longer the head is rejected, its comparison being stale.
 */
export async function gate(
  { config, store, logger }: CuratorContext,
  input: GateInput,
): Promise<GateDecision> {
  const decision = decideGate({
    candidateScores: input.candidateScores,
    headScores: input.headScores,
    stage: input.stage,
    config: input.rule ? gateConfigFor(config.gate, input.rule) : config.gate,
    ...(input.samplesPerTask === undefined ? {} : { samplesPerTask: input.samplesPerTask }),
    ...(input.rounds ? { rounds: input.rounds } : {}),
    ...(input.maxRounds === undefined ? {} : { maxRounds: input.maxRounds }),
    ...(input.fixedSamplesPerTask === undefined ? {} : { fixedSamplesPerTask: input.fixedSamplesPerTask }),
  });
  const details: Record<string, unknown> = {
    ...decision.details,
    headVersion: input.headVersion,
    candidateVersion: input.candidateVersion,
  };
  if (input.stage === "full" && input.precheck) details.precheck = input.precheck;
  const full: GateDecision = { ...decision, details };
  if (details.final === false) return full;
  const state = full.decision === "commit" ? "committed" : "rejected";
  try {
    await store.setVersionState(input.domain, input.candidateVersion, state, full);
    logger.info("gate", { domain: input.domain, version: input.candidateVersion, decision: full.decision });
    return full;
  } catch (error) {
    // Only a stale parent is turned into a rejection; a version already decided stays an error for the caller.
    const staleParent = staleParentOf(error);
    if (state !== "committed" || !staleParent) throw error;
    // Another version was committed since this one was proposed: its comparison is stale, so it is not committed.
    // `details.rule` is what a runner reads to re-validate on the new head; the reason is for people.
    const stale: GateDecision = {
      ...full,
      decision: "reject",
      reason: `${full.reason}; but v${input.candidateVersion}'s parent is no longer the head (${(error as Error).message.slice(0, 160)}): rejected`,
      details: { ...details, rule: gateDecisionRules.staleParent, head: staleParent.head },
    };
    await store.setVersionState(input.domain, input.candidateVersion, "rejected", stale);
    return stale;
  }
}
