import { emptyExperienceStats } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { betaScore, meanDelta, successRate, ucbScore, utilityScore } from "./utility-score.js";

const stats = (shown: number, success: number, sumDelta: number) => ({
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
});

it("reads a float-rounding residue of sumDelta as no difference", () => {
  // 0.75 - 0.7 - 0.05 is -4.163e-17 in floating point: the rollouts matched their group mean exactly.
  const sumDelta = 0.75 - 0.7 - 0.05;
  expect(sumDelta).not.toBe(0);
  expect(meanDelta({ shown: 3, success: 2, sumDelta, lastUsedVersion: 1 })).toBe(0);
  expect(meanDelta({ shown: 2, success: 2, sumDelta: 0.5, lastUsedVersion: 1 })).toBe(0.25);
});
