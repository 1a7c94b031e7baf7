import { describe, expect, it } from "vitest";
import { gaussian, seededRandom, seedFrom } from "./seeded-random.js";

describe("seeded random", () => {
  it("repeats for the same seed and differs across seeds", () => {
    const a = seededRandom(seedFrom("run", 1));
    const b = seededRandom(seedFrom("run", 1));
    const c = seededRandom(seedFrom("run", 2));
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("draws standard normal samples from it", () => {
    const normal = gaussian(seededRandom(4));
    const samples = Array.from({ length: 4000 }, () => normal());
    const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
    const variance = samples.reduce((sum, x) => sum + (x - mean) ** 2, 0) / samples.length;
    expect(Math.abs(mean)).toBeLessThan(0.1);
    expect(variance).toBeGreaterThan(0.9);
    expect(variance).toBeLessThan(1.1);
  });
});
