import { describe, expect, it } from "vitest";
import { bootstrapMean, bootstrapPairedDifference } from "./bootstrap.js";
import { meanAtK, passAtK } from "./pass-at-k.js";

describe("passAtK", () => {
  it("matches the closed form on small cases", () => {
    // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 5, 1)).toBe(1);
    expect(passAtK(32, 1, 1)).toBeCloseTo(1 / 32, 12);
    expect(passAtK(32, 1, 32)).toBe(1);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
  });
  it("refuses impossible inputs", () => {
    expect(() => passAtK(4, 5, 1)).toThrow(RangeError);
    expect(() => passAtK(4, 1, 8)).toThrow(/k=8 is larger than the n=4/);
  });
  it("Mean@k is the mean reward", () => {
    expect(meanAtK([1, 0, 0.5, 1])).toBeCloseTo(0.625, 12);
  });
});

describe("bootstrap confidence intervals", () => {
  it("has zero width when every task scores the same", () => {
    expect(bootstrapMean([0.5, 0.5, 0.5, 0.5])).toEqual({ estimate: 0.5, low: 0.5, high: 0.5, level: 0.95 });
  });

  it("agrees with the normal approximation for a Bernoulli sample (known case)", () => {
    // 400 tasks, half solved: standard error sqrt(0.25/400) = 0.025, so the 95% interval is about 0.5 ± 0.049.
    const values = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const ci = bootstrapMean(values, { resamples: 4000, seed: 7 });
    expect(ci.estimate).toBe(0.5);
    expect(ci.low).toBeGreaterThan(0.5 - 0.049 - 0.006);
    expect(ci.low).toBeLessThan(0.5 - 0.049 + 0.006);
    expect(ci.high).toBeGreaterThan(0.5 + 0.049 - 0.006);
    expect(ci.high).toBeLessThan(0.5 + 0.049 + 0.006);
  });

  it("is repeatable for a seed and shifts with a paired difference", () => {
    const a = Array.from({ length: 100 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const b = a.map((v, i) => (i % 4 === 1 ? 1 : v));
    expect(bootstrapMean(a, { seed: 3 })).toEqual(bootstrapMean(a, { seed: 3 }));
    const diff = bootstrapPairedDifference(a, b, { seed: 3 });
    expect(diff.estimate).toBeCloseTo(0.25, 12);
    expect(diff.low).toBeGreaterThan(0.15);
    expect(diff.high).toBeLessThan(0.35);
  });
});
