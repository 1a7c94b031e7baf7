import { sequentialValidationRounds } from "@tfgrpo/curator";
import { curatorGate, type GateDecision, type Task } from "@tfgrpo/protocol";
import { average } from "../average.js";
import { runStateKeys } from "../run-state.js";
import { candidateOnNewHead, rejectedAsStale } from "./head-moved.js";
import type { LearnDependencies } from "./learn-dependencies.js";
import { pairedRounds } from "./paired-rounds.js";
import { scoreOnValidation, validationNeedsPooledLabels } from "./score-on-validation.js";
import { validationRoundsAhead } from "./validation-rounds-ahead.js";

/**
 * Held-out validation and the acceptance gate: candidate and head run on the same validation tasks and seeds, and the
 * curator commits the candidate or rejects it on those numbers. With the sequential gate (the default) validation
 * comes in rounds, one more paired sample per task each, and stops as soon as the curator's decision is final; rounds
 * are sampled ahead of the looks (`validationRoundsAhead`) so the model is not idle while one is read. An optional
 * cheap pre-check on the first tasks can
 * reject early; only a passed pre-check pays for the full validation, whose request carries the pre-check's decision
 * (the curator keeps nothing between the two calls, so any curator worker can answer either). Infrastructure failures
 * are left out of the scores; a validation with too many of them is `inconclusive` (nothing committed), and past the
 * circuit breaker's share the run stops.
 */
export function validateAndGate(deps: LearnDependencies) {
  const { store, domain, runState } = deps;
  const gateOnce = validateAndGateOnce(deps);
  return async (state: GateState) => {
    const entry = runStateKeys.gate(state.step);
    const stored = await runState.get(entry);
    if (stored) {
      // A candidate re-validated on a moved head is the one the stored decision names.
      const candidate =
        (stored.gate.details?.candidateVersion as number | undefined) ?? state.candidateVersion!;
      const head = (stored.gate.details?.headVersion as number | null | undefined) ?? state.headVersion;
      return {
        gate: stored.gate,
        candidateScore: stored.candidateScore,
        headScore: stored.headScore,
        candidateVersion: candidate,
        headVersion: stored.gate.decision === "commit" ? candidate : head,
      };
    }
    // Another runner may commit to the same library meanwhile: a candidate is gated only against the current head.
    let current = state;
    for (let attempt = 1; ; attempt++) {
      const head = await store.getHeadVersion(domain);
      if (head !== current.headVersion) {
        const rebased = await candidateOnNewHead(deps, state.step, {
          from: current.headVersion,
          to: head,
          candidate: current.candidateVersion!,
        });
        current = { ...current, headVersion: head, candidateVersion: rebased.candidateVersion };
        if (rebased.candidateVersion === null) {
          return {
            gate: null,
            candidateScore: null,
            headScore: null,
            candidateVersion: null,
            operations: 0,
            headVersion: head,
          };
        }
      }
      const result = await gateOnce(current, attempt < maxRevalidations);
      if (result !== "stale") return { ...result, candidateVersion: current.candidateVersion };
    }
  };
}

/** How often a step re-validates on a moved head before it lets the curator's stale rejection stand. */
const maxRevalidations = 5;

interface GateState {
  step: number;
  headVersion: number | null;
  candidateVersion: number | null;
  statsRevision: string | null;
}

/** Thrown inside a validation whose head moved, caught by `validateAndGateOnce`. */
const headMoved = Symbol("head moved");

interface GateResult {
  gate: GateDecision;
  candidateScore: number;
  headScore: number;
  headVersion: number | null;
}

function validateAndGateOnce(deps: LearnDependencies) {
  const { bus, store, options, domain, runState, val, log } = deps;
  /** "stale": the head moved during validation (when `retryStale`); no decision was made or stored. */
  return async (state: GateState, retryStale: boolean): Promise<GateResult | "stale"> => {
    try {
      return await once(state, retryStale);
    } catch (error) {
      if (error === headMoved) return "stale";
      throw error;
    }
  };

  async function once(state: GateState, retryStale: boolean): Promise<GateResult | "stale"> {
    const candidate = state.candidateVersion!;
    const entry = runStateKeys.gate(state.step);

    // Per stage: a sequential validation's calls report the failures of all its samples so far.
    const failures = { precheck: 0, full: 0 };
    const judge = async (
      tasks: readonly Task[],
      stage: "precheck" | "full",
      look: { precheck?: GateDecision; round?: number; maxRounds?: number } = {},
    ) => {
      const validation = await scoreOnValidation(
        deps,
        state,
        tasks,
        [candidate, state.headVersion],
        stage === "precheck" ? "precheck" : "validation",
        look.round,
        // Rounds are sampled (and their progress shown) by `validationRoundsAhead`.
        look.round === undefined,
      );
      failures[stage] = validation.infrastructureFailures;
      const sequential =
        look.round !== undefined ? pairedRounds(validation.attemptRewards, look.round) : null;
      const [candidateScores, headScores] = sequential
        ? [sequential.candidateScores, sequential.headScores]
        : (validation.scores as [number[], number[]]);
      const scores = { candidateScore: average(candidateScores), headScore: average(headScores) };
      const share = validation.rollouts === 0 ? 0 : validation.infrastructureFailures / validation.rollouts;
      const tooMany = share > options.inconclusiveInfraFailureRate;
      if (tooMany || (candidateScores.length === 0 && validation.rollouts > 0)) {
        // Scores measured on too few real answers decide nothing: no gate decision, nothing committed.
        const gate: GateDecision = {
          decision: "inconclusive",
          candidateScore: scores.candidateScore,
          headScore: scores.headScore,
          margin: 0,
          mode: "better-by-margin",
          tasks: candidateScores.length,
          stage,
          reason: tooMany
            ? `${validation.infrastructureFailures} of ${validation.rollouts} validation rollouts failed on the infrastructure (above ${options.inconclusiveInfraFailureRate}): no decision`
            : `no validation task has a task-level sample of every version (${validation.infrastructureFailures} infrastructure failure(s)): no decision`,
          details: {
            infrastructureFailures: validation.infrastructureFailures,
            rollouts: validation.rollouts,
            threshold: options.inconclusiveInfraFailureRate,
          },
        };
        return { gate, ...scores };
      }
      // The head may have moved while this validation ran (another runner committed): then it compared the wrong
      // versions, and the caller handles the moved head before any decision.
      if (retryStale && (await store.getHeadVersion(domain)) !== state.headVersion) throw headMoved;
      const decision = await bus.request(curatorGate, {
        domain,
        candidateVersion: candidate,
        headVersion: state.headVersion,
        candidateScores,
        headScores,
        stage,
        samplesPerTask: validation.samplesPerTask,
        ...(options.gate ? { rule: options.gate } : {}),
        ...(sequential ? { fixedSamplesPerTask: options.valK } : {}),
        ...(sequential ? { rounds: sequential.rounds } : {}),
        ...(look.maxRounds !== undefined ? { maxRounds: look.maxRounds } : {}),
        ...(look.precheck ? { precheck: look.precheck } : {}),
      });
      return { gate: decision, ...scores };
    };
    /**
     * The full validation: one look at `--val-k` samples per task (`--gate paired-t` or `paper`), or rounds of one
     * more sample per task each, the curator deciding after every round until the evidence settles or the budget
     * ends (a curator configured with a fixed-sample rule decides at `--val-k` rounds).
     */
    const fullValidation = async (precheck: GateDecision | undefined) => {
      const fixed = options.gate === "paired-t" || options.gate === "paper";
      if (fixed || validationNeedsPooledLabels(options, val))
        return judge(val, "full", { ...(precheck ? { precheck } : {}) });
      // Without --gate the curator's configured rule decides: a fixed-sample one at --val-k rounds.
      const maxRounds = Math.max(sequentialValidationRounds(val.length, options.valMaxK), options.valK);
      // Rounds are sampled ahead in batches that fill the concurrency; the curator still looks at them one by one.
      const ahead = validationRoundsAhead(deps, state, val, [candidate, state.headVersion], maxRounds);
      try {
        for (let round = 1; ; round++) {
          await ahead.ready(round);
          const result = await judge(val, "full", { ...(precheck ? { precheck } : {}), round, maxRounds });
          if (result.gate.details?.final !== false || round >= maxRounds) return result;
          log(`step ${state.step}: gate round ${round}/${maxRounds}: ${result.gate.reason}`);
        }
      } finally {
        await ahead.finish();
      }
    };

    let decision: GateDecision | null = null;
    if (options.precheckSize > 0 && options.precheckSize < val.length) {
      decision = (await judge(val.slice(0, options.precheckSize), "precheck")).gate;
      log(`step ${state.step}: pre-check ${decision.decision}: ${decision.reason}`);
    }
    let candidateScore = decision?.candidateScore ?? null;
    let headScore = decision?.headScore ?? null;
    if (!decision || decision.decision === "commit") {
      const full = await fullValidation(decision ?? undefined);
      decision = full.gate;
      candidateScore = full.candidateScore;
      headScore = full.headScore;
    }
    log(
      `step ${state.step}: gate ${decision.decision} v${candidate} (${format(candidateScore)} vs head ${format(headScore)}): ${decision.reason}`,
    );
    if (retryStale && rejectedAsStale(decision)) return "stale" as const;
    const outcome = {
      gate: decision,
      candidateScore: candidateScore ?? 0,
      headScore: headScore ?? 0,
      infrastructureFailures: failures.precheck + failures.full,
    };
    await runState.put(entry, outcome);
    return {
      gate: decision,
      candidateScore: outcome.candidateScore,
      headScore: outcome.headScore,
      headVersion: decision.decision === "commit" ? candidate : state.headVersion,
    };
  }
}

function format(value: number | null): string {
  return value === null ? "-" : value.toFixed(3);
}
