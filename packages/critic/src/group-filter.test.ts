import { describe, expect, it } from "vitest";
import { filterGroups, homogeneousReason } from "./group-filter.js";

describe("filterGroups", () => {
  it("skips groups whose rewards are all equal and reports how many", () => {
    const result = filterGroups([
      { groupId: "all-right", rewards: [1, 1, 1] },
      { groupId: "mixed", rewards: [1, 0, 1] },
      { groupId: "all-wrong", rewards: [0, 0] },
      { groupId: "graded", rewards: [0.5, 0.5, 1] },
      { groupId: "empty", rewards: [] },
    ]);
    expect(result.kept.map((g) => g.groupId)).toEqual(["mixed", "graded"]);
    expect(result.skippedCount).toBe(3);
    expect(result.skipped[0]).toEqual({
      groupId: "all-right",
      reason: "homogeneous rewards (all 3 are 1): std = 0, nothing to compare",
    });
    expect(result.skipped[2]?.reason).toBe("no rollouts in the group");
  });

  it("keeps a single rollout (the G = 1 ablation reflects on it alone)", () => {
    expect(homogeneousReason([0])).toBeNull();
  });
});
