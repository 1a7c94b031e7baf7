import { seededRandom } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { resolveOnlineConfig } from "./online-config.js";
import { type ArmOutcome, canaryEvidence, decideCanary, fastestShare, futile } from "./sequential-canary.js";

const settings = resolveOnlineConfig().rollout;
const now = new Date("2026-01-01T00:00:00Z");
const deadlineAt = "2026-01-01T01:00:00Z";
const arm = (stratum: string, successes: number, failures: number): ArmOutcome[] => [
  ...Array.from({ length: successes }, () => ({ stratum, success: true })),
  ...Array.from({ length: failures }, () => ({ stratum, success: false })),
];

describe("the canary's evidence, stratum by stratum", () => {
  it("weighs each stratum's difference by its information and ignores strata with one arm", () => {
    // Stratum a: canary 8/10, head 5/10 -> +0.3; pooled (13 + 1) / 22, variance p(1-p)(1/10 + 1/10).
    const evidence = canaryEvidence(
      [...arm("a", 8, 2), ...arm("b", 1, 0)],
      [...arm("a", 5, 5), ...arm("c", 3, 3)],
      settings,
    );
    const pooled = 14 / 22;
    const information = 1 / (pooled * (1 - pooled) * 0.2);
    expect(evidence.strata.map((s) => [s.stratum, s.difference])).toEqual([
      ["a", 0.30000000000000004],
      ["b", null],
      ["c", null],
    ]);
    expect(evidence.information).toBeCloseTo(information, 9);
    expect(evidence.estimate).toBeCloseTo(0.3, 9);
    // ln LR = 2 h I d = 2 * 0.1 * 21.6 * 0.3.
    expect(evidence.logLikelihoodRatio).toBeCloseTo(2 * 0.1 * information * 0.3, 9);
    expect(evidence.commitAt).toBeCloseTo(Math.log(20), 12);
    expect(evidence.rejectAt).toBeCloseTo(Math.log(0.2), 12);
  });

  it("does not call a stratum mix a difference: the same rate per stratum is no evidence either way", () => {
    // The canary drew mostly the easy stratum, the head mostly the hard one; within each they are equal.
    const evidence = canaryEvidence(
      [...arm("easy", 18, 2), ...arm("hard", 1, 3)],
      [...arm("easy", 9, 1), ...arm("hard", 5, 15)],
      settings,
    );
    expect(evidence.canaryRate! - evidence.headRate!).toBeGreaterThan(0.3);
    expect(evidence.estimate).toBeCloseTo(0, 9);
    expect(evidence.logLikelihoodRatio).toBeCloseTo(0, 9);
  });
});

describe("the canary decision, rule by rule", () => {
  const decide = (canary: ArmOutcome[], head: ArmOutcome[], extra: { now?: Date; ending?: boolean } = {}) =>
    decideCanary(
      { canary, head, now: extra.now ?? now, deadlineAt, ...(extra.ending ? { ending: true } : {}) },
      settings,
    );

  it("commits once the log likelihood ratio reaches ln(1 / 0.05) = 3.00", () => {
    // 13/15 vs 5/15: d = 0.533, pooled 19/32, I = 1 / (0.241 * 2/15) = 31.1, ln LR = 2 * 0.1 * 31.1 * 0.533 = 3.32.
    expect(decide(arm("a", 13, 2), arm("a", 5, 10)).kind).toBe("commit");
    // 12/15 vs 5/15: d = 0.467, pooled 18/32, I = 30.5, ln LR = 2.85: not yet.
    expect(decide(arm("a", 12, 3), arm("a", 5, 10)).kind).toBe("continue");
  });

  it("rejects once it falls to ln(0.2) = -1.61", () => {
    // 5/12 vs 10/12: d = -0.417, pooled 16/26, I = 1 / (0.237 / 6) = 25.3, ln LR = -2.11.
    expect(decide(arm("a", 5, 7), arm("a", 10, 2)).kind).toBe("reject");
    // 6/12 vs 8/12: d = -0.167, ln LR = -0.75: not yet.
    expect(decide(arm("a", 6, 6), arm("a", 8, 4)).kind).toBe("continue");
  });

  it("does not look before both arms have minCanaryOutcomes (10)", () => {
    // 9/9 vs 0/9 would be far past either bound.
    expect(decide(arm("a", 9, 0), arm("a", 0, 30)).kind).toBe("continue");
    expect(decide(arm("a", 9, 1), arm("a", 0, 9)).kind).toBe("continue");
    expect(decide(arm("a", 10, 0), arm("a", 0, 10)).kind).toBe("commit");
  });

  it("ends inconclusive at canaryOutcomes (400), at its deadline and at the end of a session", () => {
    const even = (n: number) => arm("a", n / 2, n / 2);
    expect(decide(even(400), even(400))).toMatchObject({ kind: "inconclusive", rule: "budget" });
    expect(decide(even(40), even(40), { now: new Date(deadlineAt) })).toMatchObject({
      kind: "inconclusive",
      rule: "deadline",
    });
    expect(decide(even(40), even(40), { ending: true })).toMatchObject({
      kind: "inconclusive",
      rule: "session-end",
    });
    // A decided test is decided, deadline or not.
    expect(decide(arm("a", 13, 2), arm("a", 5, 10), { ending: true }).kind).toBe("commit");
  });

  it("serves the share that tests fastest: even for like spreads, less to an arm that varies less, within the caps", () => {
    const e = (c: ArmOutcome[], h: ArmOutcome[]) => canaryEvidence(c, h, settings);
    expect(fastestShare(e(arm("a", 5, 5), arm("a", 5, 5)), settings)).toBeCloseTo(0.5, 9);
    // Canary 19/20 (smoothed 20/22: sd 0.29) against 10/20 (sd 0.5): 0.29 / 0.79 = 0.37.
    expect(fastestShare(e(arm("a", 19, 1), arm("a", 10, 10)), settings)).toBeCloseTo(0.367, 2);
    expect(fastestShare(e(arm("a", 5, 5), arm("a", 20, 0)), settings)).toBe(0.5);
    expect(fastestShare(e(arm("a", 200, 0), arm("a", 10, 10)), settings)).toBe(0.2);
  });
});

/**
 * Monte Carlo over the real decision: live tasks in 4 strata of different difficulty (base rates 0.3-0.75), each
 * outcome's arm drawn with the share the decision asks for, the canary `delta` better or worse in every stratum.
 */
function simulate(delta: number, trials: number, seed: number, futilityEvery?: number) {
  const random = seededRandom(seed);
  const base = [0.3, 0.45, 0.6, 0.75];
  let kept = 0;
  let rejected = 0;
  let stopped = 0;
  let canaryTotal = 0;
  let total = 0;
  for (let trial = 0; trial < trials; trial++) {
    const canary: ArmOutcome[] = [];
    const head: ArmOutcome[] = [];
    let share = settings.canaryShare;
    for (;;) {
      const s = Math.floor(random() * base.length);
      const toCanary = random() < share;
      const p = Math.min(1, Math.max(0, base[s]! + (toCanary ? delta : 0)));
      (toCanary ? canary : head).push({ stratum: `s${s}`, success: random() < p });
      const verdict = decideCanary({ canary, head, now, deadlineAt }, settings);
      // A reflection falls due every `futilityEvery` outcomes: the futility rule may stop the canary then.
      const due = futilityEvery !== undefined && (canary.length + head.length) % futilityEvery === 0;
      if (verdict.kind === "continue" && due && futile(verdict.evidence, settings)) {
        stopped++;
        canaryTotal += canary.length;
        total += canary.length + head.length;
        break;
      }
      if (verdict.kind === "continue") {
        share = verdict.share;
        continue;
      }
      if (verdict.kind === "commit") kept++;
      else rejected++;
      canaryTotal += canary.length;
      total += canary.length + head.length;
      break;
    }
  }
  return {
    kept: kept / trials,
    rejected: rejected / trials,
    stopped: stopped / trials,
    canary: canaryTotal / trials,
    total: total / trials,
  };
}

describe("error rates of the sequential canary (Monte Carlo, seeded)", () => {
  it("keeps a candidate 10 points worse at most 5% of the time and rejects one 10 points better at most 20%", () => {
    const worse = simulate(-0.1, 600, 11);
    const better = simulate(0.1, 600, 12);
    const large = simulate(0.3, 200, 13);
    const neutral = simulate(0, 200, 14);
    console.log(JSON.stringify({ worse, better, large, neutral }));
    expect(worse.kept).toBeLessThanOrEqual(0.05);
    expect(better.rejected).toBeLessThanOrEqual(0.2);
    // Sequential: a large effect is decided in far fewer outcomes than a 10-point one.
    expect(large.canary).toBeLessThan(better.canary / 2);
    // The fixed gate it replaces waited for 80 canary outcomes (267 in all at a 30% share).
    expect(better.total).toBeLessThan(267);
  });
});

describe("the futility stop (a reflection falls due every 10 outcomes; Monte Carlo, seeded)", () => {
  it("never commits more: a candidate 10 points worse is kept at most 5%; one 10 points better is dropped more often, a large one rarely", () => {
    const worse = simulate(-0.1, 600, 21, 10);
    const better = simulate(0.1, 600, 22, 10);
    const large = simulate(0.3, 200, 23, 10);
    const neutral = simulate(0, 300, 24, 10);
    console.log(JSON.stringify({ worse, better, large, neutral }));
    expect(worse.kept).toBeLessThanOrEqual(0.05);
    // Dropped by the test or for futility: above the test's beta of 0.2, bounded.
    expect(better.rejected + better.stopped).toBeLessThanOrEqual(0.35);
    expect(large.rejected + large.stopped).toBeLessThanOrEqual(0.02);
    // A candidate of no effect stops sooner than the test alone decides it (measured: 36 canary outcomes against 61).
    const alone = simulate(0, 300, 24);
    expect(neutral.canary).toBeLessThan(alone.canary * 0.75);
  });
});
