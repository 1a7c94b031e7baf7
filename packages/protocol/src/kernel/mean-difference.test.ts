import { describe, expect, it } from "vitest";
import { pairedMeanDifference, twoSampleMeanDifference } from "./mean-difference.js";
import { seededRandom } from "./seeded-random.js";

describe("pairedMeanDifference", () => {
  it("is the one-sample t test of the per-task differences", () => {
    // Differences 0.5, 0, 0.5, 1, 0: mean 0.4, sd sqrt(0.175), se = sd / sqrt(5).
    const result = pairedMeanDifference([1, 0.5, 1, 1, 0.5], [0.5, 0.5, 0.5, 0, 0.5], { alpha: 0.05 });
    const se = Math.sqrt(0.175 / 5);
    expect(result.estimate).toBeCloseTo(0.4, 12);
    expect(result.standardError).toBeCloseTo(se, 12);
    expect(result).toMatchObject({ n: 5, referenceN: 5, degreesOfFreedom: 4, alpha: 0.05, against: 0 });
    // t(0.95, 4) = 2.1318.
    expect(result.lower).toBeCloseTo(0.4 - 2.1318 * se, 3);
    expect(result.upper).toBeCloseTo(0.4 + 2.1318 * se, 3);
    // t = 0.4 / se = 2.138 on 4 df, just past t(0.95, 4): one-sided p just under 0.05, lower bound just above 0.
    expect(result.pAbove).toBeCloseTo(0.0497, 3);
    expect(result.lower).toBeGreaterThan(0);
  });

  it("tests against a stated difference", () => {
    const candidate = [0.5, 0.5, 0, 1, 0.5, 0.5];
    const head = [0.5, 1, 0.5, 1, 0.5, 0];
    const at0 = pairedMeanDifference(candidate, head, { alpha: 0.05 });
    const atMinusTenth = pairedMeanDifference(candidate, head, { alpha: 0.05, against: -0.1 });
    expect(atMinusTenth.pAbove).toBeLessThan(at0.pAbove);
    // The lower bound is above `against` exactly when p < alpha.
    for (const result of [at0, atMinusTenth])
      expect(result.lower > result.against).toBe(result.pAbove < result.alpha);
  });

  it("gives a point for equal differences and no information for one pair", () => {
    expect(pairedMeanDifference([1, 1, 1], [0, 0, 0], { alpha: 0.05 })).toMatchObject({
      estimate: 1,
      standardError: 0,
      lower: 1,
      upper: 1,
      pAbove: 0,
    });
    expect(pairedMeanDifference([1, 0], [1, 0], { alpha: 0.05 }).pAbove).toBe(1);
    const one = pairedMeanDifference([1], [0], { alpha: 0.05 });
    expect(one.lower).toBe(Number.NEGATIVE_INFINITY);
    expect(one.pAbove).toBe(1);
    expect(() => pairedMeanDifference([1], [1, 0], { alpha: 0.05 })).toThrow(/paired/);
    expect(() => pairedMeanDifference([1, 0], [1, 0], { alpha: 0.7 })).toThrow(/alpha/);
  });

  it("keeps its stated level: a null difference is called positive about alpha of the time", () => {
    const random = seededRandom(11);
    let rejections = 0;
    const trials = 4000;
    for (let trial = 0; trial < trials; trial++) {
      const head = Array.from({ length: 30 }, () => random());
      const candidate = head.map((value) => Math.min(1, Math.max(0, value + (random() - 0.5) * 0.6)));
      const shift = candidate.reduce((s, v) => s + v, 0) / 30 - head.reduce((s, v) => s + v, 0) / 30;
      // Centre the candidate on the head so the true difference is 0 up to clipping.
      const result = pairedMeanDifference(
        candidate.map((value) => value - shift),
        head,
        { alpha: 0.05 },
      );
      if (result.pAbove < 0.05) rejections++;
    }
    expect(rejections / trials).toBeLessThan(0.03);
  });
});

describe("twoSampleMeanDifference", () => {
  it("is Welch's test", () => {
    const candidate = [1, 1, 0, 1, 1, 0, 1, 1];
    const reference = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1];
    const result = twoSampleMeanDifference(candidate, reference, { alpha: 0.05 });
    const a = (0.75 * 0.25 * (8 / 7)) / 8;
    const b = (0.4 * 0.6 * (10 / 9)) / 10;
    expect(result.estimate).toBeCloseTo(0.35, 12);
    expect(result.standardError).toBeCloseTo(Math.sqrt(a + b), 12);
    expect(result.degreesOfFreedom).toBeCloseTo((a + b) ** 2 / (a ** 2 / 7 + b ** 2 / 9), 10);
    expect(result).toMatchObject({ n: 8, referenceN: 10 });
    expect(result.upper).toBeGreaterThan(result.lower);
  });

  it("has no information with fewer than 2 values on a side", () => {
    const result = twoSampleMeanDifference([1], [0, 1, 0], { alpha: 0.05 });
    expect(result.estimate).toBeCloseTo(2 / 3, 12);
    expect(result.upper).toBe(Number.POSITIVE_INFINITY);
    expect(twoSampleMeanDifference([], [], { alpha: 0.05 }).estimate).toBe(0);
  });
});
