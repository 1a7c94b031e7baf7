import { describe, expect, it } from "vitest";
import { isVague, notationCount, specificity } from "./vagueness.js";

describe("the curator's generic vagueness test", () => {
  it("drops advice with no concrete action", () => {
    for (const text of [
      "Be careful with the arithmetic.",
      "Double-check everything.",
      "Verify your answer.",
      "Think step by step.",
      "Read the question carefully.",
      "Pay attention to the boundaries.",
      "Keep the units in mind.",
      "Percent problems can be tricky.",
      "Mixing averages needs care.",
      "Interval endpoints.",
    ])
      expect(isVague(text), text).toBe(true);
  });

  it("keeps concrete advice, short or long", () => {
    for (const text of [
      "Count both endpoints.",
      "Weight means by group size.",
      "Round only the final answer, never the subtotals.",
      "For an inclusive count, use b - a + 1.",
      "Use range(lo, hi + 1) for a closed interval.",
      "When a page gives kilograms and grams are asked, multiply by 1000.",
    ])
      expect(isVague(text), text).toBe(false);
  });

  it("scores notation and numbers as concrete", () => {
    expect(notationCount("b^2 - 4ac")).toBeGreaterThan(0);
    expect(notationCount("Count the ends.")).toBe(0);
    expect(specificity("Use range(lo, hi + 1).")).toBeGreaterThan(specificity("Use the right range."));
  });
});
