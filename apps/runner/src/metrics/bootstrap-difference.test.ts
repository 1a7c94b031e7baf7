import { describe, expect, it } from "vitest";
import { bootstrapDifference } from "./bootstrap.js";

describe("bootstrapDifference (unpaired)", () => {
  it("centres on the difference of the means and excludes zero only for a clear gap", () => {
    const low = Array.from({ length: 50 }, (_, i) => (i < 10 ? 1 : 0));
    const high = Array.from({ length: 50 }, (_, i) => (i < 30 ? 1 : 0));
    const clear = bootstrapDifference(low, high, { seed: 3 });
    expect(clear.estimate).toBeCloseTo(0.4, 10);
    expect(clear.low).toBeGreaterThan(0.15);
    expect(clear.high).toBeLessThan(0.65);
    const none = bootstrapDifference(low, [...low].reverse(), { seed: 3 });
    expect(none.estimate).toBe(0);
    expect(none.low).toBeLessThan(0);
    expect(none.high).toBeGreaterThan(0);
  });

  it("takes sides of different sizes and refuses an empty side", () => {
    expect(bootstrapDifference([0, 0, 1], [1, 1]).estimate).toBeCloseTo(2 / 3, 10);
    expect(() => bootstrapDifference([], [1])).toThrow(RangeError);
  });
});
