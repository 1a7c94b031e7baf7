import { describe, expect, it } from "vitest";
import { contrastSequence } from "./contrast-sequence.js";
import { contrastDecision, decisionPriority, exposureShare } from "./decision-priority.js";
import { contrastEstimate } from "./experience-contrast.js";

/** Counters of `n` groups whose differences average `mean` with a spread (standard deviation) of `spread`. */
const counters = (n: number, mean: number, spread = 0.3) => ({
  n,
  sum: n * mean,
  sumSquares: n * (mean * mean + spread * spread),
});

describe("contrastSequence", () => {
  it("knows nothing without groups, and is wider than the fixed-n interval at every n (the price of every look)", () => {
    expect(contrastSequence(counters(0, 0))).toMatchObject({ n: 0, lower: -1, upper: 1 });
    for (const n of [4, 10, 30, 100]) {
      const sequence = contrastSequence(counters(n, 0.1));
      const fixed = contrastEstimate(counters(n, 0.1));
      expect(sequence.estimate).toBeCloseTo(0.1, 9);
      expect(sequence.upper - sequence.lower).toBeGreaterThan(fixed.upper - fixed.lower);
    }
    // It narrows as groups come in.
    const width = (n: number) =>
      contrastSequence(counters(n, 0)).upper - contrastSequence(counters(n, 0)).lower;
    expect(width(100)).toBeLessThan(width(30));
    expect(width(30)).toBeLessThan(width(10));
  });
});

describe("decisionPriority", () => {
  it("is 1 with too few contrasts, 0 once settled, and higher for an open entry leaning to harm", () => {
    expect(decisionPriority(undefined, "active")).toBe(1);
    expect(decisionPriority(counters(3, -0.5), "active")).toBe(1);
    expect(decisionPriority(counters(80, 0.3), "active")).toBe(0);
    expect(contrastDecision(counters(80, -0.4)).harmful).toBe(true);
    expect(decisionPriority(counters(80, -0.4), "active")).toBe(0);
    const leaningHarm = decisionPriority(counters(10, -0.1), "active");
    const leaningSafe = decisionPriority(counters(10, 0.1), "active");
    expect(leaningHarm).toBeGreaterThan(leaningSafe);
    expect(leaningSafe).toBeGreaterThanOrEqual(0.5);
    expect(decisionPriority(counters(10, 0), "archived")).toBe(0);
  });

  it("keeps a probation entry open until harm is confirmed or it is safe again", () => {
    const harmful = counters(8, -0.33, 0.15);
    expect(contrastDecision(harmful).harmful).toBe(true);
    expect(contrastDecision(harmful).confirmedHarm).toBe(false);
    expect(decisionPriority(harmful, "active")).toBe(0);
    expect(decisionPriority(harmful, "probation")).toBeGreaterThan(0.5);
  });

  it("varies an open entry in every group, a settled one in the budget's share", () => {
    expect(exposureShare(1, 0.15)).toBe(1);
    expect(exposureShare(0.5, 0.15)).toBe(1);
    expect(exposureShare(0, 0.15)).toBe(0.15);
  });
});
