import { describe, expect, it } from "vitest";
import { isShownToAttempt, isVaried, variationOf } from "./exposure-plan.js";

describe("exposure plan", () => {
  const exposure = { attempts: 5, seed: 42, activeShare: 1 / 3 };

  /** Counters of `n` groups whose differences average `mean` with a spread of about 0.3. */
  const counters = (n: number, mean: number) => ({
    n,
    sum: n * mean,
    sumSquares: n * (mean * mean + 0.09),
  });

  it("varies every entry whose decision is open, a settled active one only within the budget, never archived ones", () => {
    expect(variationOf(exposure, "G1", "candidate")).toBe("open");
    expect(variationOf(exposure, "G1", "probation")).toBe("open");
    expect(isVaried(exposure, "G1", "archived")).toBe(false);
    // Few contrasts, or a sequence straddling the harm threshold: open, in every group.
    expect(variationOf(exposure, "G1", "active", counters(2, 0.3))).toBe("open");
    expect(variationOf(exposure, "G1", "active", counters(10, -0.05))).toBe("open");
    // Settled (safe by a wide margin): only in a share of groups, the exposure budget.
    const settled = counters(60, 0.3);
    expect(variationOf(exposure, "G1", "active", settled)).not.toBe("open");
    const varied = Array.from({ length: 3000 }, (_, i) =>
      isVaried({ ...exposure, seed: i }, "G1", "active", settled),
    );
    const share = varied.filter(Boolean).length / varied.length;
    expect(share).toBeGreaterThan(0.3);
    expect(share).toBeLessThan(0.37);
    expect(isVaried({ ...exposure, attempts: 1 }, "G1", "candidate")).toBe(false);
  });

  it("shows a varied entry to a balanced part of the group, the same for every call", () => {
    for (let seed = 0; seed < 200; seed++) {
      const plan = { ...exposure, seed };
      const shown = [0, 1, 2, 3, 4].filter((attempt) => isShownToAttempt(plan, "G3", attempt));
      expect([2, 3]).toContain(shown.length);
      expect([0, 1, 2, 3, 4].filter((attempt) => isShownToAttempt(plan, "G3", attempt))).toEqual(shown);
    }
  });

  it("assigns entries independently: two entries are not always shown together", () => {
    let together = 0;
    for (let seed = 0; seed < 200; seed++) {
      const plan = { ...exposure, seed };
      const a = [0, 1, 2, 3, 4].map((attempt) => isShownToAttempt(plan, "G1", attempt));
      const b = [0, 1, 2, 3, 4].map((attempt) => isShownToAttempt(plan, "G2", attempt));
      if (a.every((value, index) => value === b[index])) together++;
    }
    expect(together).toBeLessThan(40);
  });
});
