import { describe, expect, it } from "vitest";
import { getPitfall } from "../pitfalls/catalog.js";
import { loadLessonBank } from "../testing/lesson-bank.js";
import { measureRecognition } from "./lesson-recognition.js";
import { analyzeLesson, readLesson } from "./read-lesson.js";

const read = (pitfallId: string, text: string) => readLesson(getPitfall(pitfallId)!.reading, text);

describe("the simulated policy reads lessons by meaning", () => {
  it("reads the same advice in words, notation and code", () => {
    for (const text of [
      "When counting the integers from a to b inclusive, include both endpoints.",
      "Counting days between two dates inclusively: the count is end - start + 1.",
      "Use range(lo, hi + 1) so the upper bound is counted.",
      "Never exclude the first or the last value of a closed range.",
    ])
      expect(read("range-endpoints", text).effect, text).toBe("helps");
    for (const text of [
      "For real roots, compute b^2 - 4ac first; if it is negative there are none.",
      "Check the sign of the discriminant before counting real solutions.",
      "Discard complex roots when the question asks for real ones.",
    ])
      expect(read("discriminant", text).effect, text).toBe("helps");
    expect(read("negative-modulo", "Use Python's % (not math.fmod) so -7 mod 3 gives 2.").effect).toBe(
      "helps",
    );
  });

  it("handles negation: never, don't, instead of, rather than, neither … nor, called a mistake", () => {
    expect(read("range-endpoints", "Don't leave out the endpoints of an inclusive count.").effect).toBe(
      "helps",
    );
    expect(
      read("range-endpoints", "When counting days in a span, leave out the first and last day.").effect,
    ).toBe("hurts");
    expect(
      read("intermediate-rounding", "Don't round the intermediate prices; round only the final total.")
        .effect,
    ).toBe("helps");
    expect(read("intermediate-rounding", "Round each intermediate price to the cent.").effect).toBe("hurts");
    expect(
      read(
        "successive-percent-base",
        "Instead of adding the percentages, multiply the factors (1 + a)(1 - b).",
      ).effect,
    ).toBe("helps");
    expect(
      read("weighted-mean", "Averaging the class means is a classic mistake when the classes differ in size.")
        .effect,
    ).toBe("helps");
    expect(
      read("snippet-vs-official", "Open the official page rather than trusting the search snippet.").effect,
    ).toBe("helps");
  });

  it("gives a topic name little or no effect and unrelated advice none", () => {
    expect(read("range-endpoints", "Range endpoints.").effect).not.toBe("helps");
    expect(read("discriminant", "Think about the discriminant.").effect).toBe("vague");
    expect(read("range-endpoints", "Simplify fractions before adding them.").effect).toBe("none");
    expect(read("unit-conversion", "Quote the entity's full name in the search query.").effect).toBe("none");
  });

  // The target is 90% / 90% / 5%. Measured on the bank the reader was tuned on: math 88% / 87%, web 92% / 86%,
  // unrelated ≤ 3% (docs/sim.md). These floors hold the measured level so a regression fails; they are below the target.
  it("recognises the independently written bank it was tuned on (test-data/lesson-bank)", () => {
    for (const domain of ["math", "web"] as const) {
      const report = measureRecognition(loadLessonBank(domain));
      const { totals } = report;
      const detail = report.rows.map((row) => `${row.pitfall}: ${row.correct.helpful}/${row.correct.total}`);
      expect(
        totals.correctHelpful,
        `${domain} correct read as helpful (${detail.join(", ")})`,
      ).toBeGreaterThanOrEqual(0.87);
      expect(totals.harmfulHarmful, `${domain} harmful read as harmful`).toBeGreaterThanOrEqual(0.85);
      expect(totals.unrelatedActing, `${domain} unrelated with any effect`).toBeLessThanOrEqual(0.05);
      expect(totals.weakActing, `${domain} vague lessons and stubs acting fully`).toBeLessThanOrEqual(0.1);
    }
  });

  it("generalises to a second bank never used for tuning (test-data/lesson-bank-2)", () => {
    // A regression floor, not the target: the figures on this bank are reported by the benchmark and in docs/sim.md.
    for (const domain of ["math", "web"] as const) {
      const { totals } = measureRecognition(loadLessonBank(domain, "all", "lesson-bank-2"));
      expect(totals.correctHelpful, domain).toBeGreaterThanOrEqual(0.7);
      expect(totals.harmfulHarmful, domain).toBeGreaterThanOrEqual(0.65);
      expect(totals.unrelatedActing, domain).toBeLessThanOrEqual(0.05);
    }
  });
});

describe("forms whose direction the previous reader got wrong (issue 25 item 7, banks 2 and 5)", () => {
  it("reads 'check X against Y' as a comparison, not a negation", () => {
    expect(read("outdated-source", "Verify each number against the latest dated report.").effect).toBe(
      "helps",
    );
    expect(read("outdated-source", "Warn against the latest dated report; use the oldest one.").effect).toBe(
      "hurts",
    );
  });

  it("reads '≠' as denying the equation, its left side included", () => {
    expect(
      read("weighted-mean", "Average of the group averages ≠ mean of everybody when sizes vary.").effect,
    ).toBe("helps");
  });

  it("reads what stands before an arrow as the case, and '? No →' as a branch", () => {
    expect(
      read("range-endpoints", "Closed range → hi − lo + 1. Open range → hi − lo − 1. Read the bounds.")
        .effect,
    ).toBe("helps");
    expect(
      read("without-replacement", "Put back after drawing? No → lower the remaining count by one.").effect,
    ).toBe("helps");
  });

  it("reads a count before 'distinct' as the number of distinct values", () => {
    expect(read("repeated-root", "A perfect-square quadratic gives two distinct real roots.").effect).toBe(
      "hurts",
    );
    expect(read("repeated-root", "A double root counts as one distinct root.").effect).toBe("helps");
  });

  it("keeps a stance cue's direction under a negation that governs the verb", () => {
    expect(
      read("discriminant", "Resist listing a quadratic's real roots ahead of knowing its discriminant.")
        .effect,
    ).not.toBe("hurts");
  });

  it("reads worked numbers: a conversion answered with the given number, a choice between dated figures", () => {
    expect(read("unit-conversion", "For 3 kg asked in grams, the answer is 3.").effect).toBe("hurts");
    expect(read("unit-conversion", "For 3 kg asked in grams, the answer is 3000.").effect).not.toBe("hurts");
    expect(read("outdated-source", "A page says 900 (2017), another 1,100 (2023): give 1,100.").effect).toBe(
      "helps",
    );
    expect(read("outdated-source", "A page says 900 (2017), another 1,100 (2023): give 900.").effect).toBe(
      "hurts",
    );
  });

  it("does not read 'segment or line' into 'line segment'", () => {
    expect(analyzeLesson("Count crossings with a line segment.").present.has("EXTENSION")).toBe(false);
    expect(analyzeLesson("Segment or line makes no difference.").present.has("EXTENSION")).toBe(true);
  });
});
