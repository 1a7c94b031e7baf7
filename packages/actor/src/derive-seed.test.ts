import { describe, expect, it } from "vitest";
import { deriveSeed } from "./derive-seed.js";

describe("deriveSeed", () => {
  it("is stable for the same run, task and attempt", () => {
    expect(deriveSeed("run-1", "task-1", 0)).toBe(deriveSeed("run-1", "task-1", 0));
  });

  it("differs across attempts, tasks and runs and fits in 31 bits", () => {
    const seeds = new Set([
      deriveSeed("run-1", "task-1", 0),
      deriveSeed("run-1", "task-1", 1),
      deriveSeed("run-1", "task-2", 0),
      deriveSeed("run-2", "task-1", 0),
      // No ambiguity from concatenation: ("a", "bc") is not ("ab", "c").
      deriveSeed("a", "bc", 0),
      deriveSeed("ab", "c", 0),
    ]);
    expect(seeds.size).toBe(6);
    for (const seed of seeds) {
      expect(Number.isInteger(seed)).toBe(true);
      expect(seed).toBeGreaterThanOrEqual(0);
      expect(seed).toBeLessThan(2 ** 31);
    }
  });
});
