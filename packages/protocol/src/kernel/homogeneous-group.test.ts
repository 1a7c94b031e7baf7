import { describe, expect, it } from "vitest";
import { isHomogeneousGroup } from "./homogeneous-group.js";

describe("isHomogeneousGroup (the std = 0 rule)", () => {
  it("is true when every reward is the same, within float residue", () => {
    expect(isHomogeneousGroup([1, 1, 1])).toBe(true);
    expect(isHomogeneousGroup([0, 0])).toBe(true);
    expect(isHomogeneousGroup([0.1 + 0.2, 0.3])).toBe(true);
  });

  it("is false when some rollout did better than another", () => {
    expect(isHomogeneousGroup([1, 0, 1])).toBe(false);
    expect(isHomogeneousGroup([0.5, 0.5, 1])).toBe(false);
  });

  it("has nothing to compare in an empty group, and keeps a single rollout (the G = 1 ablation)", () => {
    expect(isHomogeneousGroup([])).toBe(true);
    expect(isHomogeneousGroup([0])).toBe(false);
  });
});
