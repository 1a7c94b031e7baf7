import { type GateDecision, type MeanDifference, pairedMeanDifference, TfgrpoError } from "@tfgrpo/protocol";
import { show, signed } from "./gate-format.js";
import type { GateInput, GateTest } from "./gate-types.js";
import { sequentialDecision } from "./sequential-decision.js";

export type { GateConfig, GateInput, GateTest } from "./gate-types.js";

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * The acceptance gate (the paper's "revert E", seed 002 4.2): commit a candidate library only if it does better than
 * the head on the same held-out tasks by `margin` (or, in the lenient mode, is not worse by more than `tolerance`).
 * The pre-check is the cheap first look on a minibatch: it rejects clear losers only, and a pass means "run the full
 * validation", never a commit by itself (its decision carries `details.final = false`).
 * Scores are paired task by task, so the decision also reports wins, losses and ties.
 *
 * With `test.kind` paired-t (the default) a commit needs two things: the mode's rule on the estimated gain (in
 * better-by-margin strictly above the margin: a tie is no evidence of improvement and keeps the head), and a
 * one-sided paired t test over the tasks' differences that rules out a loss of `test.harm` at level `test.alpha`
 * (the lower (1 - alpha) bound of the gain above -harm). So a candidate `harm` or more worse than the head is
 * committed with probability at most alpha; the chance of rejecting a better one depends on the validation budget
 * (tasks x samples) and is measured by bench/gate-error-rates.bench.ts. The decision carries the test's numbers in
 * `details.test`.
 */
export function decideGate(input: GateInput): GateDecision {
  const { config, stage } = input;
  const candidate = input.candidateScores;
  const head = input.headScores;
  if (head.length > 0 && head.length !== candidate.length) {
    throw new TfgrpoError(
      "invalid_input",
      `gate: candidate and head scores must be on the same held-out tasks (got ${candidate.length} and ${head.length} scores)`,
      { details: { candidate: candidate.length, head: head.length } },
    );
  }
  for (const [name, scores] of [
    ["candidateScores", candidate],
    ["headScores", head],
  ] as const) {
    const bad = scores.findIndex((score) => !Number.isFinite(score) || score < 0 || score > 1);
    if (bad >= 0)
      throw new TfgrpoError(
        "invalid_input",
        `gate: ${name}[${bad}] = ${scores[bad]} is not a score in [0, 1]`,
        {
          details: { field: `${name}[${bad}]` },
        },
      );
  }

  const candidateScore = candidate.length > 0 ? mean(candidate) : null;
  const headScore = head.length > 0 ? mean(head) : null;
  let wins = 0;
  let losses = 0;
  if (head.length > 0) {
    candidate.forEach((score, index) => {
      if (score > head[index]!) wins++;
      else if (score < head[index]!) losses++;
    });
  }
  const details: Record<string, unknown> = {
    wins,
    losses,
    ties: head.length > 0 ? candidate.length - wins - losses : null,
    final: true,
  };
  const base = { candidateScore, headScore, mode: config.mode, tasks: candidate.length, stage };
  const margin = config.mode === "not-worse-within-tolerance" ? -config.tolerance : config.margin;

  if (config.mode === "always") {
    return {
      ...base,
      decision: "commit",
      margin: 0,
      stage: "none",
      reason: "gate mode always: committed without comparing scores",
      details,
    };
  }
  if (stage === "precheck" && !config.precheck.enabled) {
    return {
      ...base,
      decision: "commit",
      margin: -config.precheck.tolerance,
      reason: "pre-check disabled: go on to full validation",
      details: { ...details, final: false },
    };
  }
  const fixedSamples = input.fixedSamplesPerTask ?? 0;
  const testKind = config.test?.kind ?? "none";
  if (stage === "full" && input.rounds && testKind !== "sequential" && input.rounds.length < fixedSamples) {
    return {
      ...base,
      decision: "inconclusive",
      margin,
      reason: `gate test ${testKind} decides at ${fixedSamples} samples per task: ${input.rounds.length} so far, sample another round`,
      details: { ...details, final: false },
    };
  }
  if (candidateScore === null) {
    return {
      ...base,
      decision: "reject",
      margin,
      reason: "no validation scores for the candidate: keeping the head",
      details,
    };
  }
  if (headScore === null) {
    // No head to beat (the first version of a library): nothing to revert to, so the candidate is accepted.
    const final = stage === "full";
    return {
      ...base,
      decision: "commit",
      margin,
      reason: `no head version to compare with: candidate ${show(candidateScore)} on ${candidate.length} tasks accepted${final ? "" : "; go on to full validation"}`,
      details: { ...details, final },
    };
  }

  const difference = candidateScore - headScore;
  details.difference = difference;
  if (stage === "precheck") {
    const threshold = -config.precheck.tolerance;
    const pass = difference >= threshold - 1e-12;
    return {
      ...base,
      decision: pass ? "commit" : "reject",
      margin: threshold,
      reason: pass
        ? `pre-check passed: candidate ${show(candidateScore)} vs head ${show(headScore)} on ${candidate.length} tasks (difference ${show(difference)} >= ${show(threshold)}); go on to full validation`
        : `pre-check failed: candidate ${show(candidateScore)} vs head ${show(headScore)} on ${candidate.length} tasks (difference ${show(difference)} < ${show(threshold)}): keeping the head`,
      details: { ...details, final: !pass },
    };
  }
  // The epsilon keeps float noise (0.1 + 0.2) from flipping a decision that is exactly at the margin.
  const test = config.test ?? { kind: "none", alpha: 0.05, harm: 0.1 };
  const tieKeepsHead = test.kind !== "none" && config.mode === "better-by-margin";
  const pointPass = tieKeepsHead ? difference > margin + 1e-12 : difference >= margin - 1e-12;
  const rule =
    config.mode === "better-by-margin"
      ? `better by ${tieKeepsHead ? "more than" : "at least"} ${show(config.margin)}`
      : `not worse by more than ${show(config.tolerance)}`;
  const failedRule =
    config.mode === "better-by-margin" ? `not ${rule}` : `worse by more than ${show(config.tolerance)}`;
  const compared = `candidate ${show(candidateScore)} vs head ${show(headScore)} on ${candidate.length} tasks${input.samplesPerTask ? ` (${input.samplesPerTask} sample${input.samplesPerTask === 1 ? "" : "s"} each)` : ""}`;
  if (input.samplesPerTask !== undefined) details.samplesPerTask = input.samplesPerTask;
  if (test.kind === "none") {
    return {
      ...base,
      decision: pointPass ? "commit" : "reject",
      margin,
      reason: pointPass
        ? `${compared}: ${rule} (difference ${show(difference)}): commit`
        : `${compared}: ${failedRule} (difference ${show(difference)}): keeping the head`,
      details,
    };
  }
  if (test.kind === "sequential") {
    return sequentialDecision({
      input,
      test,
      base,
      details,
      margin,
      compared,
      rule,
      failedRule,
      tieKeepsHead,
    });
  }
  const measured = pairedMeanDifference(candidate, head, { alpha: test.alpha, against: -test.harm });
  details.test = testDetails(measured, test, input.samplesPerTask);
  const ruledOut = measured.lower > -test.harm;
  const pass = pointPass && ruledOut;
  const evidence = `gain ${signed(measured.estimate)}, ${show(1 - test.alpha)} lower bound ${signed(measured.lower)}, p(loss >= ${show(test.harm)}) = ${measured.pAbove.toPrecision(2)}`;
  const why = !pointPass
    ? `${failedRule}${tieKeepsHead && Math.abs(difference - margin) <= 1e-12 ? " (a tie keeps the head)" : ""}`
    : `${rule}, but a loss of ${show(test.harm)} is not ruled out at alpha ${test.alpha}`;
  return {
    ...base,
    decision: pass ? "commit" : "reject",
    margin,
    reason: pass
      ? `${compared}: ${rule} and a loss of ${show(test.harm)} ruled out at alpha ${test.alpha} (${evidence}): commit`
      : `${compared}: ${why} (${evidence}): keeping the head`,
    details,
  };
}

/** The test's numbers as stored with the decision (JSON-safe: infinite bounds become null). */
function testDetails(measured: MeanDifference, test: GateTest, samplesPerTask: number | undefined) {
  const finite = (value: number) => (Number.isFinite(value) ? value : null);
  return {
    kind: test.kind,
    alpha: test.alpha,
    harm: test.harm,
    estimate: measured.estimate,
    standardError: finite(measured.standardError),
    lower: finite(measured.lower),
    upper: finite(measured.upper),
    degreesOfFreedom: measured.degreesOfFreedom,
    pValue: measured.pAbove,
    tasks: measured.n,
    samplesPerTask: samplesPerTask ?? null,
  };
}
