import { describe, expect, it } from "vitest";
import { compareDirections, readPolarity } from "./lesson-polarity.js";

const relation = (a: string, b: string) => compareDirections(readPolarity(a), readPolarity(b)).relation;

describe("the curator's reading of a lesson's direction", () => {
  it("reads negation and its scope", () => {
    expect(relation("Never round the subtotal.", "Round the subtotal to the cent.")).toBe("opposite");
    expect(relation("Don't round the subtotal.", "Never round the subtotal.")).toBe("same");
    expect(relation("Avoid rounding the subtotal.", "Round the subtotal to the cent.")).toBe("opposite");
    // A negation's reach ends at "until": "do not round until the end" agrees with rounding at the end.
    expect(relation("Do not round until the very end.", "Round at the end.")).not.toBe("opposite");
  });

  it("reads general antonym pairs", () => {
    expect(relation("Include the first day.", "Exclude the first day.")).toBe("opposite");
    expect(relation("Include the first day.", "Leave out the first day.")).toBe("opposite");
    expect(relation("Never leave out the first day.", "Include the first day.")).toBe("same");
    expect(relation("Convert the mass to grams.", "Keep the mass as stated.")).toBe("opposite");
    expect(relation("Count a tangent root once.", "Count a tangent root twice.")).toBe("opposite");
    expect(relation("Check the date before answering.", "Check the date after answering.")).toBe("opposite");
    expect(
      relation("Apply the discount to the original price.", "Apply the discount to the new price."),
    ).toBe("opposite");
    expect(relation("Use the weighted mean of the groups.", "Use the unweighted mean of the groups.")).toBe(
      "opposite",
    );
  });

  it("reads formulas: the same expression negated, or rival expressions over the same variables", () => {
    expect(relation("The count is b - a + 1.", "The count is b - a.")).toBe("opposite");
    expect(relation("The count is b - a + 1, not b - a.", "There are b - a + 1 values.")).not.toBe(
      "opposite",
    );
    expect(relation("Loop over range(lo, hi + 1).", "Loop over range(lo, hi).")).toBe("opposite");
  });

  it("reads a clause naming a mistake as advice against what it names", () => {
    expect(relation("A common mistake is to exclude the first day.", "Include the first day.")).toBe("same");
  });

  it("says unclear when nothing in the texts gives a direction", () => {
    expect(relation("Weight group means by size.", "Compute the total of all scores.")).toBe("unclear");
  });
});
