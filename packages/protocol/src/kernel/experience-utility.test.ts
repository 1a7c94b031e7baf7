import { describe, expect, it } from "vitest";
import { type ExperienceStats, emptyExperienceStats } from "../schemas/experience.js";
import {
  betaScore,
  meanDelta,
  observedUtility,
  successRate,
  ucbScore,
  unitUtility,
  utilityOptionsSchema,
  utilityScore,
} from "./experience-utility.js";

const stats = (shown: number, success: number, sumDelta: number): ExperienceStats => ({
  shown,
  success,
  sumDelta,
  lastUsedVersion: 1,
});

describe("utility scores", () => {
  it("UCB follows seed 002: p + 0.5 * avgDelta + c * sqrt(ln(N + 1) / n)", () => {
    const s = stats(4, 3, 0.4);
    expect(successRate(s)).toBe(0.75);
    expect(meanDelta(s)).toBe(0.1);
    expect(ucbScore(s, 99, 1.2)).toBeCloseTo(0.75 + 0.05 + 1.2 * Math.sqrt(Math.log(100) / 4), 12);
  });

  it("UCB tries an entry never shown first", () => {
    expect(ucbScore(emptyExperienceStats(), 100, 1.2)).toBe(Number.POSITIVE_INFINITY);
  });

  it("UCB's exploration bonus shrinks with evidence, so proven entries beat lucky ones", () => {
    const lucky = ucbScore(stats(2, 2, 0.5), 1000, 0.5);
    const proven = ucbScore(stats(200, 180, 30), 1000, 0.5);
    const provenNoBonus = ucbScore(stats(200, 180, 30), 1000, 0);
    expect(provenNoBonus).toBeCloseTo(0.9 + 0.075, 12);
    expect(lucky).toBeGreaterThan(proven);
    expect(ucbScore(stats(2, 2, 0.5), 1000, 0)).toBeGreaterThan(provenNoBonus);
  });

  it("Beta posterior score is finite without evidence and ranks by posterior mean", () => {
    expect(betaScore(emptyExperienceStats(), 0)).toBe(0.5);
    expect(betaScore(stats(10, 9, 1), 0)).toBeCloseTo(10 / 12 + 0.05, 12);
    expect(betaScore(stats(10, 9, 1), 1)).toBeGreaterThan(betaScore(stats(10, 9, 1), 0));
  });

  it("utilityScore dispatches on kind", () => {
    const s = stats(5, 2, -0.5);
    expect(utilityScore(s, 10, { kind: "ucb", c: 1 })).toBe(ucbScore(s, 10, 1));
    expect(utilityScore(s, 10, { kind: "beta", c: 1 })).toBe(betaScore(s, 1));
  });

  it("defaults to seed 002's UCB with c = 1.2", () => {
    expect(utilityOptionsSchema.parse({})).toEqual({ kind: "ucb", c: 1.2 });
  });
});

it("reads a float-rounding residue of sumDelta as no difference", () => {
  // 0.75 - 0.7 - 0.05 is -4.163e-17 in floating point: the rollouts matched their group mean exactly.
  const sumDelta = 0.75 - 0.7 - 0.05;
  expect(sumDelta).not.toBe(0);
  expect(meanDelta({ shown: 3, success: 2, sumDelta, lastUsedVersion: 1 })).toBe(0);
  expect(meanDelta({ shown: 2, success: 2, sumDelta: 0.5, lastUsedVersion: 1 })).toBe(0.25);
});

// What retrieval reads (formerly the actor's own meanUtility / ucbUtility; the assertions keep their meaning, the
// expected numbers are those of the shared formula).
describe("observedUtility", () => {
  it("is neutral without evidence", () => {
    expect(observedUtility(stats(0, 0, 0), "ucb")).toBe(0.5);
    expect(observedUtility(stats(0, 0, 0), "beta")).toBe(0.5);
  });

  it("rises with positive group deltas and falls with negative ones", () => {
    const good = observedUtility(stats(10, 8, 4), "ucb");
    const bad = observedUtility(stats(10, 2, -4), "ucb");
    expect(good).toBeGreaterThan(0.5);
    expect(bad).toBeLessThan(0.5);
    // p + 0.5 * meanDelta, no exploration: 0.8 + 0.5 * 0.4
    expect(good).toBeCloseTo(1, 10);
  });
});

describe("unitUtility", () => {
  const options = { kind: "ucb" as const, c: 1.2 };
  const unit = (s: ExperienceStats, totalShown: number, c = options.c) =>
    unitUtility(utilityScore(s, totalShown, { ...options, c }));

  it("gives never-shown entries the maximum so they get tried", () => {
    expect(unit(stats(0, 0, 0), 100)).toBe(1);
  });

  it("adds an exploration bonus that shrinks with more shows", () => {
    const rarely = unit(stats(2, 1, 0), 200);
    const often = unit(stats(50, 25, 0), 200);
    expect(rarely).toBeGreaterThan(often);
    expect(often).toBeCloseTo((0.5 + 1.2 * Math.sqrt(Math.log(201) / 50) + 0.5) / 2, 10);
  });

  it("stays within [0, 1]", () => {
    expect(unit(stats(1, 1, 1), 1_000_000)).toBe(1);
    expect(unit(stats(1000, 0, -1000), 1000, 0)).toBeGreaterThanOrEqual(0);
  });

  it("ranks entries as the lifecycle's utility does", () => {
    const entries = [
      stats(40, 30, 6),
      stats(40, 10, -6),
      stats(5, 3, 0.2),
      stats(400, 200, 0),
      stats(12, 12, 3),
    ];
    const total = entries.reduce((sum, s) => sum + s.shown, 0);
    const order = (score: (s: ExperienceStats) => number) =>
      entries.map((s, index) => ({ index, score: score(s) })).sort((a, b) => b.score - a.score);
    const lifecycle = order((s) => utilityScore(s, total, { kind: "ucb", c: 0.3 }));
    const retrieval = order((s) => unitUtility(utilityScore(s, total, { kind: "ucb", c: 0.3 })));
    expect(retrieval.map((e) => e.index)).toEqual(lifecycle.map((e) => e.index));
    expect(retrieval.every((e) => e.score > 0 && e.score < 1)).toBe(true);
  });
});
