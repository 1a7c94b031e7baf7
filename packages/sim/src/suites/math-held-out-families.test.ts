import { describe, expect, it } from "vitest";
import { orderMatters, withoutReplacement } from "../pitfalls/math-held-out-pitfalls.js";
import { createSuite } from "./create-suite.js";
import { generateMathInstances, recognizeMathQuestion, suiteSplits } from "./math.js";
import { mathFamilies } from "./math-families.js";
import { noneFallen } from "./math-family.js";
import {
  committeeChoices,
  drawsWithoutReplacement,
  isHeldOutMathFamily,
  mathHeldOutFamilies,
} from "./math-held-out-families.js";

const heldOutIds = new Set(mathHeldOutFamilies.map((f) => f.id));

describe("held-out math families", () => {
  it("parse both phrasings of every generated question back to the same parameters", () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed - 1) / 2147483646;
    };
    for (const family of mathHeldOutFamilies) {
      for (let i = 0; i < 60; i++) {
        const params = family.generate(random);
        for (const variant of [0, 1]) {
          const question = family.question(params, variant);
          expect(family.parse(question), question).toEqual(params);
          expect(recognizeMathQuestion(question)?.family.id).toBe(family.id);
          // No existing family claims them, and they claim no existing family's questions.
          expect(mathFamilies.some((f) => f.parse(question) !== null)).toBe(false);
        }
      }
    }
    expect(committeeChoices.parse("A club has 12 members. How many committees are there?")).toBeNull();
    expect(drawsWithoutReplacement.parse("A bag contains 3 red marbles. What is 2 + 2?")).toBeNull();
  });

  it("compute unordered choices and draws without replacement, and the trapped versions", () => {
    const committee = { n: 10, k: 3, setting: 0 };
    expect(committeeChoices.evaluate(committee, noneFallen)).toBe("120");
    expect(committeeChoices.evaluate(committee, new Set([orderMatters.id]))).toBe("720");
    expect(committeeChoices.code(committee, noneFallen)).toContain("math.comb(10, 3)");
    expect(committeeChoices.code(committee, new Set([orderMatters.id]))).toContain("math.perm(10, 3)");
    expect(committeeChoices.question(committee, 0)).toBe(
      "A club has 10 members. How many different committees of 3 members can be chosen from them?",
    );

    const draws = { red: 5, blue: 7, container: 0 };
    // 5/12 * 4/11 = 20/132 = 5/33; (5/12)^2 = 25/144.
    expect(drawsWithoutReplacement.evaluate(draws, noneFallen)).toBe("5/33");
    expect(drawsWithoutReplacement.evaluate(draws, new Set([withoutReplacement.id]))).toBe("25/144");
    expect(drawsWithoutReplacement.code(draws, noneFallen)).toContain(
      "Fraction(r, n) * Fraction(r - 1, n - 1)",
    );
    expect(drawsWithoutReplacement.code(draws, new Set([withoutReplacement.id]))).toContain(
      "Fraction(r, n) ** 2",
    );
    for (const family of mathHeldOutFamilies)
      expect(family.describe(family.generate(() => 0.5))).toMatch(/^I will /);
  });

  it("appear only in the test split, about 2 of 9 tasks, marked out-of-family", () => {
    for (const seed of [3, 7, 11]) {
      for (const split of suiteSplits) {
        const tasks = createSuite({ domain: "math", seed, size: 45, split });
        const outOfFamily = tasks.filter((t) => heldOutIds.has(String(t.meta?.family)));
        for (const task of tasks) {
          expect(task.meta?.familySplit).toBe(
            heldOutIds.has(String(task.meta?.family)) ? "out-of-family" : "in-family",
          );
          expect(isHeldOutMathFamily(String(task.meta?.family))).toBe(
            task.meta?.familySplit === "out-of-family",
          );
        }
        if (split === "test") expect(outOfFamily).toHaveLength(10);
        else expect(outOfFamily).toEqual([]);
      }
    }
    // Deterministic.
    expect(generateMathInstances(5, "test", 18).map((i) => i.question)).toEqual(
      generateMathInstances(5, "test", 18).map((i) => i.question),
    );
  });

  it("write test tasks the server recognises with exact answers and an active pitfall", () => {
    const tasks = createSuite({ domain: "math", seed: 13, size: 36, split: "test" }).filter((t) =>
      heldOutIds.has(String(t.meta?.family)),
    );
    expect(tasks.length).toBe(8);
    for (const task of tasks) {
      const instance = recognizeMathQuestion(task.question);
      expect(instance?.answer).toBe(task.answer);
      expect(instance?.familySplit).toBe("out-of-family");
      expect(task.answer).toMatch(/^-?\d+(\/\d+)?$/);
      expect(task.meta?.pitfalls).toEqual(instance!.family.pitfalls.map((p) => p.id));
    }
  });
});
