import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createSuite } from "./create-suite.js";
import { recognizeMathQuestion, suiteSplits } from "./math.js";
import { mathFamilies } from "./math-families.js";
import { mathHeldOutFamilies } from "./math-held-out-families.js";

describe("math suites", () => {
  it("are deterministic for a seed and differ between seeds", () => {
    const a = createSuite({ domain: "math", seed: 7, size: 20, split: "train" });
    expect(createSuite({ domain: "math", seed: 7, size: 20, split: "train" })).toEqual(a);
    const b = createSuite({ domain: "math", seed: 8, size: 20, split: "train" });
    expect(b.map((t) => t.question)).not.toEqual(a.map((t) => t.question));
  });

  it("keeps train, val and test disjoint while covering every family in each (test: the held-out ones too)", () => {
    const splits = suiteSplits.map((split) => createSuite({ domain: "math", seed: 3, size: 42, split }));
    const questions = splits.map((tasks) => new Set(tasks.map((t) => t.question)));
    for (const set of questions) expect(set.size).toBe(42);
    expect([...questions[0]!].filter((q) => questions[1]!.has(q) || questions[2]!.has(q))).toEqual([]);
    expect([...questions[1]!].filter((q) => questions[2]!.has(q))).toEqual([]);
    const [train, val, test] = splits;
    for (const tasks of [train!, val!]) {
      expect(new Set(tasks.map((t) => t.meta?.family))).toEqual(new Set(mathFamilies.map((f) => f.id)));
    }
    expect(new Set(test!.map((t) => t.meta?.family))).toEqual(
      new Set([...mathFamilies, ...mathHeldOutFamilies].map((f) => f.id)),
    );
  });

  it("writes tasks the server recognises, with exact answers and the pitfalls that matter", () => {
    const tasks = createSuite({ domain: "math", seed: 11, size: 70, split: "val" });
    for (const task of tasks) {
      const instance = recognizeMathQuestion(task.question);
      expect(instance, task.question).not.toBeNull();
      expect(instance!.answer).toBe(task.answer);
      expect(task.answer).toMatch(/^-?\d+(\/\d+)?$/);
      expect(instance!.activePitfalls.map((p) => p.id)).toEqual(task.meta?.pitfalls);
      expect(instance!.activePitfalls.length).toBeGreaterThan(0);
      expect(task.meta).toMatchObject({ simulated: true, split: "val", worldSeed: 11 });
    }
  });

  it("recognises nothing it did not write", () => {
    expect(recognizeMathQuestion("What is 2 + 2?")).toBeNull();
    expect(recognizeMathQuestion("How many multiples of 7 lie between 14 and 91?")).toBeNull();
  });

  it("refuses a bad size with a clear error", () => {
    expect(() => createSuite({ domain: "math", seed: 1, size: 0, split: "train" })).toThrowError(
      /size must be a positive integer/,
    );
    try {
      createSuite({ domain: "math", seed: 1, size: -1, split: "train" });
    } catch (error) {
      expect(TfgrpoError.hasCode(error, "invalid_input")).toBe(true);
    }
  });
});
