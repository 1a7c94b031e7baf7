/**
 * One round of paired validation: every task run once more by both versions on the same seed; per task (same order
 * in both arrays) the reward of that round's sample, in [0, 1].
 */
export interface ValidationRound {
  candidate: readonly number[];
  head: readonly number[];
}

/** The sequential gate's settings (`gate.test` with kind sequential). */
export interface SequentialSettings {
  /** Chance of committing a candidate `harm` worse than the head over the validation tasks. */
  alpha: number;
  /** Chance of the reject test rejecting a candidate `gain` better (the budget cap adds to it, measured). */
  beta: number;
  /** The loss the commit test rules out. */
  harm: number;
  /** The gain the reject test rules out. */
  gain: number;
}

export interface SequentialLook {
  /** commit: a loss of `harm` ruled out; reject: a gain of `gain` ruled out; continue: neither yet. */
  verdict: "commit" | "reject" | "continue";
  /** Mean paired difference (candidate minus head) over every observation so far. */
  estimate: number;
  observations: number;
  rounds: number;
  /** E-value against "the candidate is `harm` or more worse": committing needs at least 1 / alpha. */
  commitEvidence: number;
  /** E-value against "the candidate is `gain` or more better": rejecting needs at least 1 / beta. */
  rejectEvidence: number;
}

/** Largest share of its wealth a bet may risk on one observation (keeps a bad first guess from ruining the test). */
const maxRisk = 0.5;
/** Prior pseudo-observations shrinking the bets of the first rounds towards "no difference, variance 0.25". */
const priorObservations = 2;
const priorVariance = 0.25;

/**
 * Testing by betting (Waudby-Smith & Ramdas 2023) on the paired differences `y = candidate - head` in [-1, 1], with
 * two e-processes over the rounds:
 *
 * - commit: wealth `prod (1 + l * (y + harm))`, a nonnegative supermartingale when the validation mean difference is
 *   at most -harm, so by Ville's inequality it ever reaches 1/alpha with probability at most alpha;
 * - reject: wealth `prod (1 - l * (y - gain))`, likewise under a mean difference of at least +gain, threshold 1/beta.
 *
 * The hypotheses are about the mean over the validation tasks with equal weights (the set as drawn). Within a round
 * every task gets one sample, the observations of the round are independent, and the bet `l` is fixed for the whole
 * round (chosen from earlier rounds only): the round's product then has expectation at most 1 under the null, by the
 * AM-GM inequality over the tasks' own mean differences, even though tasks differ. So the test may look after every
 * round, as often as it likes, and stay valid. Bets follow the plug-in GRAPA rule (estimated edge over estimated
 * second moment), shrunk towards a prior in the first rounds and capped so one observation risks at most half.
 */
export function sequentialLook(
  rounds: readonly ValidationRound[],
  settings: SequentialSettings,
): Omit<SequentialLook, "verdict"> & { commitReached: boolean; rejectReached: boolean } {
  let commitLog = 0;
  let rejectLog = 0;
  let sum = 0;
  let sumSquares = 0;
  let observations = 0;
  const commitCap = settings.harm < 1 ? maxRisk / (1 - settings.harm) : 10;
  const rejectCap = settings.gain < 1 ? maxRisk / (1 - settings.gain) : 10;
  for (const round of rounds) {
    const mean = sum / (observations + priorObservations);
    const variance =
      (sumSquares - 2 * mean * sum + observations * mean * mean + priorObservations * priorVariance) /
      (observations + priorObservations);
    const commitBet = clamp((mean + settings.harm) / (variance + (mean + settings.harm) ** 2), commitCap);
    const rejectBet = clamp((settings.gain - mean) / (variance + (settings.gain - mean) ** 2), rejectCap);
    round.candidate.forEach((candidate, task) => {
      const difference = candidate - round.head[task]!;
      commitLog += Math.log1p(commitBet * (difference + settings.harm));
      rejectLog += Math.log1p(-rejectBet * (difference - settings.gain));
      sum += difference;
      sumSquares += difference * difference;
      observations++;
    });
  }
  const commitEvidence = Math.exp(commitLog);
  const rejectEvidence = Math.exp(rejectLog);
  return {
    estimate: observations === 0 ? 0 : sum / observations,
    observations,
    rounds: rounds.length,
    commitEvidence,
    rejectEvidence,
    commitReached: commitLog >= Math.log(1 / settings.alpha) - 1e-12,
    rejectReached: rejectLog >= Math.log(1 / settings.beta) - 1e-12,
  };
}

const clamp = (bet: number, cap: number) => (Number.isFinite(bet) ? Math.min(cap, Math.max(0, bet)) : 0);

/**
 * The verdict after the rounds so far: commit once the loss is ruled out and the estimate passes the point rule (in
 * better-by-margin a tie keeps the head), reject once the gain is ruled out, reject when both are (the difference is
 * inside the indifference zone), and at `maxRounds` without either, reject: the evidence did not settle within the
 * budget and the head, already proven, stays. Committing only ever happens on the commit test, so the forced
 * decision at the cap keeps the chance of committing a `harm`-worse candidate at most alpha.
 */
export function sequentialVerdict(
  rounds: readonly ValidationRound[],
  settings: SequentialSettings,
  options: { maxRounds: number; pointPass: (estimate: number) => boolean },
): SequentialLook & { settled: boolean } {
  const look = sequentialLook(rounds, settings);
  const { commitReached, rejectReached, ...numbers } = look;
  const commit = commitReached && !rejectReached && options.pointPass(look.estimate);
  const verdict = rejectReached ? "reject" : commit ? "commit" : "continue";
  if (verdict === "continue" && rounds.length >= options.maxRounds)
    return { ...numbers, verdict: "reject", settled: false };
  return { ...numbers, verdict, settled: verdict !== "continue" };
}
