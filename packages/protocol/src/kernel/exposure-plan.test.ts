import { describe, expect, it } from "vitest";
import { isShownToAttempt, isVaried } from "./exposure-plan.js";

describe("exposure plan", () => {
  const exposure = { attempts: 5, seed: 42, activeShare: 1 / 3 };

  it("always varies candidates and probation entries, a share of active ones, never archived ones", () => {
    expect(isVaried(exposure, "G1", "candidate")).toBe(true);
    expect(isVaried(exposure, "G1", "probation")).toBe(true);
    expect(isVaried(exposure, "G1", "archived")).toBe(false);
    // An active entry with few contrasts is still uncertain: always varied; a settled one only in a share of groups.
    expect(isVaried(exposure, "G1", "active", 3)).toBe(true);
    const varied = Array.from({ length: 3000 }, (_, i) =>
      isVaried({ ...exposure, seed: i }, "G1", "active", 40),
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
