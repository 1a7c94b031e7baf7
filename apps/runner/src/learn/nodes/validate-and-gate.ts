import { curatorGate, type GateDecision, type Task } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { runStateKeys } from "../run-state.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { scoreOnValidation } from "./score-on-validation.js";

/**
 * Held-out validation and the acceptance gate: candidate and head run on the same validation tasks and seeds, and the
 * curator commits the candidate or rejects it on those numbers. An optional cheap pre-check on the first tasks can
 * reject early; only a passed pre-check pays for the full validation, whose request carries the pre-check's decision
 * (the curator keeps nothing between the two calls, so any curator worker can answer either).
 */
export function validateAndGate(deps: LearnDependencies) {
  const { bus, options, domain, runState, val, log } = deps;
  return async (state: {
    step: number;
    headVersion: number | null;
    candidateVersion: number | null;
    statsRevision: string | null;
  }) => {
    const candidate = state.candidateVersion!;
    const entry = runStateKeys.gate(state.step);
    const stored = await runState.get(entry);
    if (stored)
      return { ...stored, headVersion: stored.gate.decision === "commit" ? candidate : state.headVersion };

    const judge = async (tasks: readonly Task[], stage: "precheck" | "full", precheck?: GateDecision) => {
      const [candidateScores, headScores] = await scoreOnValidation(
        deps,
        state,
        tasks,
        [candidate, state.headVersion],
        stage === "precheck" ? "precheck" : "validation",
      );
      const decision = await bus.request(curatorGate, {
        domain,
        candidateVersion: candidate,
        headVersion: state.headVersion,
        candidateScores: candidateScores!,
        headScores: headScores!,
        stage,
        ...(precheck ? { precheck } : {}),
      });
      return { gate: decision, candidateScore: average(candidateScores!), headScore: average(headScores!) };
    };

    let decision: GateDecision | null = null;
    if (options.precheckSize > 0 && options.precheckSize < val.length) {
      decision = (await judge(val.slice(0, options.precheckSize), "precheck")).gate;
      log(`step ${state.step}: pre-check ${decision.decision}: ${decision.reason}`);
    }
    let candidateScore = decision?.candidateScore ?? null;
    let headScore = decision?.headScore ?? null;
    if (!decision || decision.decision === "commit") {
      const full = await judge(val, "full", decision ?? undefined);
      decision = full.gate;
      candidateScore = full.candidateScore;
      headScore = full.headScore;
    }
    log(
      `step ${state.step}: gate ${decision.decision} v${candidate} (${format(candidateScore)} vs head ${format(headScore)}): ${decision.reason}`,
    );
    const outcome = { gate: decision, candidateScore: candidateScore ?? 0, headScore: headScore ?? 0 };
    await runState.put(entry, outcome);
    return { ...outcome, headVersion: decision.decision === "commit" ? candidate : state.headVersion };
  };
}

function format(value: number | null): string {
  return value === null ? "-" : value.toFixed(3);
}
