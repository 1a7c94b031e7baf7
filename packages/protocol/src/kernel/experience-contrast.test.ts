import { describe, expect, it } from "vitest";
import {
  addContrast,
  contrastDirection,
  contrastEstimate,
  emptyContrast,
  formatContrast,
  formatContrastBounds,
  formatSigned,
} from "./experience-contrast.js";
import { seededRandom } from "./seeded-random.js";

const fromDifferences = (differences: number[]) => differences.reduce(addContrast, emptyContrast());

describe("contrastEstimate", () => {
  it("has no evidence without groups: estimate 0, the whole range", () => {
    expect(contrastEstimate(emptyContrast())).toMatchObject({ n: 0, estimate: 0, lower: -1, upper: 1 });
    expect(formatContrast(contrastEstimate(emptyContrast()))).toBe("no contrast yet");
  });

  it("is the mean difference with a bound that narrows as groups accumulate", () => {
    const few = contrastEstimate(fromDifferences([0.5, 0, 0.5, 0]));
    const many = contrastEstimate(fromDifferences(Array.from({ length: 40 }, (_, i) => (i % 2 ? 0 : 0.5))));
    expect(few.estimate).toBeCloseTo(0.25, 9);
    expect(many.estimate).toBeCloseTo(0.25, 9);
    expect(many.upper - many.lower).toBeLessThan((few.upper - few.lower) / 2.5);
    expect(many.lower).toBeGreaterThan(0.1);
    expect(few.lower).toBeLessThan(0);
  });

  it("does not trust a handful of equal differences (the prior keeps the variance up)", () => {
    const interval = contrastEstimate(fromDifferences([0.5, 0.5]));
    expect(interval.lower).toBeLessThan(0.1);
  });

  it("covers a true effect about as often as it says (one-sided 95% per bound)", () => {
    const random = seededRandom(7);
    let missedBelow = 0;
    const trials = 2000;
    for (let trial = 0; trial < trials; trial++) {
      // Groups of 5 attempts split 3/2, success 0.4 with the entry, 0.6 without: true effect -0.2.
      const differences = Array.from({ length: 12 }, () => {
        const shown = [0, 1, 2].map(() => (random() < 0.4 ? 1 : 0));
        const withheld = [0, 1].map(() => (random() < 0.6 ? 1 : 0));
        return shown.reduce((a, b) => a + b, 0) / 3 - withheld.reduce((a, b) => a + b, 0) / 2;
      });
      if (contrastEstimate(fromDifferences(differences)).upper < -0.2) missedBelow++;
    }
    expect(missedBelow / trials).toBeLessThan(0.08);
  });

  it("formats the estimate, its interval and n", () => {
    expect(
      formatContrast(contrastEstimate(fromDifferences([0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]))),
    ).toMatch(/^\+0\.200 \[\+0\.\d{3}, \+0\.\d{3}\] over 9 groups$/);
  });

  it("says which way an interval points, and writes its bounds with their signs", () => {
    expect(contrastDirection(contrastEstimate(emptyContrast()))).toBe("none");
    const helps = contrastEstimate(fromDifferences(Array.from({ length: 20 }, () => 0.4)));
    const hurts = contrastEstimate(fromDifferences(Array.from({ length: 20 }, () => -0.4)));
    const unclear = contrastEstimate(fromDifferences([0.5, -0.5, 0.5, -0.5]));
    expect([helps, hurts, unclear].map(contrastDirection)).toEqual(["helps", "hurts", "unclear"]);
    expect(formatSigned(0)).toBe("+0.000");
    expect(formatSigned(-0.05)).toBe("-0.050");
    expect(formatContrastBounds({ n: 3, estimate: 0, lower: -0.25, upper: 0.5, standardError: 0.1 })).toBe(
      "[-0.250, +0.500]",
    );
  });
});
