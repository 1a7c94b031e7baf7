import { describe, expect, it } from "vitest";
import { meanUtility, ucbUtility } from "./utility-score.js";

const options = { explorationWeight: 0.5, successWeight: 0.25 };
const stats = (shown: number, success: number, sumDelta: number) => ({
  shown,
  success,
  sumDelta,
  lastUsedVersion: null,
});

describe("meanUtility", () => {
  it("is neutral without evidence", () => {
    expect(meanUtility(stats(0, 0, 0), 0.25)).toBe(0.5);
  });

  it("rises with positive group deltas and falls with negative ones", () => {
    const good = meanUtility(stats(10, 8, 4), 0.25);
    const bad = meanUtility(stats(10, 2, -4), 0.25);
    expect(good).toBeGreaterThan(0.5);
    expect(bad).toBeLessThan(0.5);
    // (0.75 * (0.5 + 0.2) + 0.25 * 0.8) = 0.725, shrunk by one neutral observation: (7.25 + 0.5) / 11
    expect(good).toBeCloseTo(7.75 / 11, 10);
  });
});

describe("ucbUtility", () => {
  it("gives never-shown entries the maximum so they get tried", () => {
    expect(ucbUtility(stats(0, 0, 0), 100, options)).toBe(1);
  });

  it("adds an exploration bonus that shrinks with more shows", () => {
    const rarely = ucbUtility(stats(2, 1, 0), 200, options);
    const often = ucbUtility(stats(50, 25, 0), 200, options);
    expect(rarely).toBeGreaterThan(often);
    expect(often).toBeCloseTo((0.5 * 50 + 0.5) / 51 + 0.5 * Math.sqrt(Math.log(201) / 50), 10);
  });

  it("stays within [0, 1]", () => {
    expect(ucbUtility(stats(1, 1, 1), 1_000_000, options)).toBe(1);
    expect(
      ucbUtility(stats(1000, 0, -1000), 1000, { explorationWeight: 0, successWeight: 0.25 }),
    ).toBeGreaterThanOrEqual(0);
  });
});
