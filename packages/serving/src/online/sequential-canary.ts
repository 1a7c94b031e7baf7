import type { OnlineConfig } from "./online-config.js";

/** One outcome as the canary's test reads it: which stratum of similar tasks it fell in, and whether it succeeded. */
export interface ArmOutcome {
  stratum: string;
  success: boolean;
}

export type SequentialSettings = Pick<
  OnlineConfig["rollout"],
  "harm" | "alpha" | "beta" | "minCanaryOutcomes" | "canaryOutcomes" | "canaryShare" | "minCanaryShare"
>;

export interface StratumEvidence {
  stratum: string;
  canary: { n: number; successes: number };
  head: { n: number; successes: number };
  /** Canary rate - head rate in this stratum (null while an arm has fewer than two outcomes in it). */
  difference: number | null;
  /** 1 / variance of the difference (0 when the stratum does not count). */
  information: number;
}

export interface CanaryEvidence {
  strata: StratumEvidence[];
  /** The strata's differences weighted by their information (null: no stratum counts yet). */
  estimate: number | null;
  /** Sum of the strata's information. */
  information: number;
  /** Log likelihood ratio of "harm better" against "harm worse" (Wald's SPRT on the stratified difference). */
  logLikelihoodRatio: number;
  /** Commit at or above this: ln(1 / alpha). */
  commitAt: number;
  /** Reject at or below this: ln(beta). */
  rejectAt: number;
  canaryOutcomes: number;
  headOutcomes: number;
  canaryRate: number | null;
  headRate: number | null;
}

export type CanaryVerdict =
  | { kind: "continue"; evidence: CanaryEvidence; share: number }
  | { kind: "commit" | "reject"; evidence: CanaryEvidence }
  | {
      kind: "inconclusive";
      rule: "deadline" | "budget" | "session-end" | "futility";
      evidence: CanaryEvidence;
    };

/** Least outcomes of each arm in a stratum before it counts (a variance needs two). */
const minPerArm = 2;

const rate = (n: number, successes: number) => (n === 0 ? null : successes / n);

/**
 * The evidence of a canary against its head, stratum by stratum: in each stratum where both arms have outcomes, the
 * difference of success rates and its information (Bernoulli variance at the stratum's pooled rate, smoothed by one
 * success and one failure so a stratum of all successes still has a variance). Strata of unlike tasks are never
 * compared with each other, so a stretch of harder tasks on one arm does not look like a worse version.
 */
export function canaryEvidence(
  canary: readonly ArmOutcome[],
  head: readonly ArmOutcome[],
  settings: Pick<SequentialSettings, "harm" | "alpha" | "beta">,
): CanaryEvidence {
  const byStratum = new Map<string, StratumEvidence>();
  const cell = (stratum: string) => {
    let found = byStratum.get(stratum);
    if (!found) {
      found = {
        stratum,
        canary: { n: 0, successes: 0 },
        head: { n: 0, successes: 0 },
        difference: null,
        information: 0,
      };
      byStratum.set(stratum, found);
    }
    return found;
  };
  for (const outcome of canary) {
    const c = cell(outcome.stratum).canary;
    c.n++;
    if (outcome.success) c.successes++;
  }
  for (const outcome of head) {
    const h = cell(outcome.stratum).head;
    h.n++;
    if (outcome.success) h.successes++;
  }
  let score = 0;
  let information = 0;
  for (const s of byStratum.values()) {
    if (s.canary.n < minPerArm || s.head.n < minPerArm) continue;
    const pooled = (s.canary.successes + s.head.successes + 1) / (s.canary.n + s.head.n + 2);
    const variance = pooled * (1 - pooled) * (1 / s.canary.n + 1 / s.head.n);
    s.difference = s.canary.successes / s.canary.n - s.head.successes / s.head.n;
    s.information = 1 / variance;
    score += s.information * s.difference;
    information += s.information;
  }
  const canarySuccesses = canary.filter((o) => o.success).length;
  const headSuccesses = head.filter((o) => o.success).length;
  return {
    strata: [...byStratum.values()].sort((a, b) => a.stratum.localeCompare(b.stratum)),
    estimate: information > 0 ? score / information : null,
    information,
    // SPRT of delta = +harm against delta = -harm on a normal estimate with this information:
    // ln LR = I * ((d + h)^2 - (d - h)^2) / 2 = 2 h * I * d.
    logLikelihoodRatio: 2 * settings.harm * score,
    // Ville's inequality: the likelihood ratio is a martingale under either hypothesis, so it ever reaches 1 / alpha
    // under "harm worse" with probability at most alpha, and ever falls to beta under "harm better" at most beta,
    // however many looks (Wald's usual ln((1 - beta) / alpha) allows up to alpha / (1 - beta)).
    commitAt: Math.log(1 / settings.alpha),
    rejectAt: Math.log(settings.beta),
    canaryOutcomes: canary.length,
    headOutcomes: head.length,
    canaryRate: rate(canary.length, canarySuccesses),
    headRate: rate(head.length, headSuccesses),
  };
}

/**
 * The canary share that tests fastest: for a difference of two means from a fixed amount of traffic, the variance is
 * least when each arm's share is proportional to its outcomes' standard deviation (Neyman allocation), an even split
 * when both succeed about as often. Smoothed rates, clamped to [minCanaryShare, canaryShare]: the cap is the risk a
 * user accepts, the floor keeps the test moving.
 */
export function fastestShare(
  evidence: Pick<CanaryEvidence, "strata">,
  settings: Pick<SequentialSettings, "canaryShare" | "minCanaryShare">,
): number {
  let canary = { n: 0, successes: 0 };
  let head = { n: 0, successes: 0 };
  for (const s of evidence.strata) {
    canary = { n: canary.n + s.canary.n, successes: canary.successes + s.canary.successes };
    head = { n: head.n + s.head.n, successes: head.successes + s.head.successes };
  }
  const spread = (arm: { n: number; successes: number }) => {
    const p = (arm.successes + 1) / (arm.n + 2);
    return Math.sqrt(p * (1 - p));
  };
  const neyman = spread(canary) / (spread(canary) + spread(head));
  const low = Math.min(settings.minCanaryShare, settings.canaryShare);
  return Math.min(settings.canaryShare, Math.max(low, neyman));
}

/**
 * The canary's decision, a pure function of its outcomes, the clock and the settings. Wald's sequential probability
 * ratio test of "the canary is `harm` better" against "`harm` worse", on the stratified difference of success rates,
 * looked at after every outcome once both arms have `minCanaryOutcomes`: commit when the log likelihood ratio
 * reaches ln((1 - beta) / alpha), reject when it falls to ln(beta / (1 - alpha)). Wald's bounds hold however often it
 * looks, so a candidate `harm` worse is committed at most about alpha of the time and one `harm` better rejected at
 * most about beta (measured in sequential-canary.test.ts). Large effects cross a bound after few outcomes; an effect
 * near zero takes longest, and ends inconclusive at `canaryOutcomes`, at its deadline or at the end of a session.
 */
export function decideCanary(
  input: {
    canary: readonly ArmOutcome[];
    head: readonly ArmOutcome[];
    now: Date;
    deadlineAt: string;
    /** The session ends: an undecided canary is decided inconclusive now. */
    ending?: boolean;
  },
  settings: SequentialSettings,
): CanaryVerdict {
  const evidence = canaryEvidence(input.canary, input.head, settings);
  const looks =
    evidence.canaryOutcomes >= settings.minCanaryOutcomes &&
    evidence.headOutcomes >= settings.minCanaryOutcomes;
  if (looks && evidence.logLikelihoodRatio >= evidence.commitAt) return { kind: "commit", evidence };
  if (looks && evidence.logLikelihoodRatio <= evidence.rejectAt) return { kind: "reject", evidence };
  if (evidence.canaryOutcomes >= settings.canaryOutcomes)
    return { kind: "inconclusive", rule: "budget", evidence };
  if (input.now.getTime() >= Date.parse(input.deadlineAt))
    return { kind: "inconclusive", rule: "deadline", evidence };
  if (input.ending) return { kind: "inconclusive", rule: "session-end", evidence };
  return { kind: "continue", evidence, share: fastestShare(evidence, settings) };
}

/**
 * Whether a canary still undecided may be stopped for futility when a reflection falls due: it has had
 * `futilityAfter` outcomes and its stratified estimate is no better than the head (at or below zero, or no stratum
 * counts yet). Only ever a drop: it cannot commit a candidate, so alpha holds; the chance of dropping a candidate
 * `harm` better grows above beta (measured in sequential-canary.test.ts).
 */
export function futile(
  evidence: CanaryEvidence,
  settings: Pick<OnlineConfig["rollout"], "futilityAfter">,
): boolean {
  return (
    evidence.canaryOutcomes >= settings.futilityAfter &&
    !(evidence.estimate !== null && evidence.estimate > 0)
  );
}
