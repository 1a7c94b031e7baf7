import { type GateDecision, TfgrpoError } from "@tfgrpo/protocol";
import { show, signed } from "./gate-format.js";
import type { GateInput, GateTest } from "./gate-types.js";
import { type SequentialSettings, sequentialVerdict, type ValidationRound } from "./sequential-gate.js";

/** The reject test's level and the gain it rules out, when the settings leave them out. */
export const defaultRejectLevel = 0.2;

/** The sequential settings of a gate test (beta and gain defaulted). */
export function sequentialSettingsOf(test: GateTest): SequentialSettings {
  return {
    alpha: test.alpha,
    beta: test.beta ?? defaultRejectLevel,
    harm: test.harm,
    gain: test.gain ?? test.harm,
  };
}

/**
 * The full-stage decision of `decideGate` with test kind sequential: the verdict of the two tests by betting on the
 * rounds so far. A look that settles nothing before the budget's last round is non-final (`details.final: false`,
 * decision `inconclusive`): the caller samples another round and asks again; nothing is written.
 */
export function sequentialDecision(context: {
  input: GateInput;
  test: GateTest;
  base: Omit<GateDecision, "decision" | "margin" | "reason">;
  details: Record<string, unknown>;
  margin: number;
  compared: string;
  rule: string;
  failedRule: string;
  tieKeepsHead: boolean;
}): GateDecision {
  const { input, test, base, margin, compared, rule, tieKeepsHead } = context;
  const rounds = input.rounds ?? [{ candidate: input.candidateScores, head: input.headScores }];
  checkRounds(rounds);
  const maxRounds = input.rounds ? Math.max(input.maxRounds ?? rounds.length, rounds.length) : 1;
  const settings = sequentialSettingsOf(test);
  const pointPass = (estimate: number) =>
    tieKeepsHead ? estimate > margin + 1e-12 : estimate >= margin - 1e-12;
  const look = sequentialVerdict(rounds, settings, { maxRounds, pointPass });
  const details: Record<string, unknown> = {
    ...context.details,
    final: look.verdict !== "continue",
    test: {
      kind: "sequential",
      alpha: settings.alpha,
      beta: settings.beta,
      harm: settings.harm,
      gain: settings.gain,
      estimate: look.estimate,
      commitEvidence: look.commitEvidence,
      commitThreshold: 1 / settings.alpha,
      rejectEvidence: look.rejectEvidence,
      rejectThreshold: 1 / settings.beta,
      rounds: look.rounds,
      maxRounds,
      observations: look.observations,
      settled: look.settled,
      tasks: rounds[0]?.candidate.length ?? 0,
      samplesPerTask: look.rounds,
    },
  };
  const evidence = `gain ${signed(look.estimate)} over ${look.observations} paired samples in ${look.rounds} of ${maxRounds} rounds; evidence against a ${show(settings.harm)} loss ${look.commitEvidence.toPrecision(3)} (commit at ${1 / settings.alpha}), against a ${show(settings.gain)} gain ${look.rejectEvidence.toPrecision(3)} (reject at ${1 / settings.beta})`;
  if (look.verdict === "continue") {
    return {
      ...base,
      decision: "inconclusive",
      margin,
      reason: `${compared}: not settled yet (${evidence}): sample another round`,
      details,
    };
  }
  if (look.verdict === "commit") {
    return {
      ...base,
      decision: "commit",
      margin,
      reason: `${compared}: ${rule} and a loss of ${show(settings.harm)} ruled out at alpha ${settings.alpha}, sequentially (${evidence}): commit`,
      details,
    };
  }
  const why = !look.settled
    ? "not settled within the validation budget"
    : look.commitEvidence * settings.alpha >= 1
      ? "the difference is inside the indifference zone"
      : `a gain of ${show(settings.gain)} ruled out at beta ${settings.beta}`;
  return {
    ...base,
    decision: "reject",
    margin,
    reason: `${compared}: ${why} (${evidence}): keeping the head`,
    details,
  };
}

function checkRounds(rounds: readonly ValidationRound[]): void {
  rounds.forEach((round, index) => {
    if (round.candidate.length !== round.head.length)
      throw new TfgrpoError(
        "invalid_input",
        `gate: rounds[${index}] has ${round.candidate.length} candidate and ${round.head.length} head rewards (paired by task, they must match)`,
        { details: { field: `rounds[${index}]` } },
      );
    for (const side of ["candidate", "head"] as const) {
      const bad = round[side].findIndex((value) => !Number.isFinite(value) || value < 0 || value > 1);
      if (bad >= 0)
        throw new TfgrpoError(
          "invalid_input",
          `gate: rounds[${index}].${side}[${bad}] = ${round[side][bad]} is not a reward in [0, 1]`,
          { details: { field: `rounds[${index}].${side}[${bad}]` } },
        );
    }
  });
}
