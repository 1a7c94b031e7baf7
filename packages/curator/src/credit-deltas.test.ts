import { describe, expect, it } from "vitest";
import { compareExperienceIds, creditDeltas, groupContrasts } from "./credit-deltas.js";

const observations = [
  { trajectoryId: "t1", reward: 1, groupMeanReward: 0.5, shown: ["G1", "G2"], cited: ["G2"] },
  { trajectoryId: "t2", reward: 0, groupMeanReward: 0.5, shown: ["G1", "G2"], cited: ["G1", "G9"] },
  { trajectoryId: "t3", reward: 0.5, groupMeanReward: 0.25, shown: ["G10"], cited: [] },
];

describe("creditDeltas", () => {
  it("credits every shown entry with one showing, the reward and the group-relative delta", () => {
    expect(creditDeltas(observations, { version: 7, attribution: "shown" })).toEqual([
      { id: "G1", shown: 2, success: 1, sumDelta: 0, lastUsedVersion: 7 },
      { id: "G2", shown: 2, success: 1, sumDelta: 0, lastUsedVersion: 7 },
      { id: "G10", shown: 1, success: 0.5, sumDelta: 0.25, lastUsedVersion: 7 },
    ]);
  });

  it("with cited attribution credits only cited entries that were shown", () => {
    expect(creditDeltas(observations, { version: null, attribution: "cited" })).toEqual([
      { id: "G1", shown: 1, success: 0, sumDelta: -0.5, lastUsedVersion: null },
      { id: "G2", shown: 1, success: 1, sumDelta: 0.5, lastUsedVersion: null },
    ]);
  });

  it("counts an id shown twice in one rollout once", () => {
    const deltas = creditDeltas(
      [{ trajectoryId: "t", reward: 1, groupMeanReward: 0, shown: ["G1", "G1"], cited: [] }],
      {
        version: 1,
        attribution: "shown",
      },
    );
    expect(deltas).toEqual([{ id: "G1", shown: 1, success: 1, sumDelta: 1, lastUsedVersion: 1 }]);
  });

  it("orders ids by number", () => {
    expect(["G10", "G2", "G1"].sort(compareExperienceIds)).toEqual(["G1", "G2", "G10"]);
  });
});

describe("groupContrasts", () => {
  const observation = (group: string, reward: number, shown: string[], withheld: string[] = []) => ({
    trajectoryId: `${group}/${reward}/${shown.join()}`,
    reward,
    groupMeanReward: 0,
    shown,
    cited: [],
    groupId: group,
    ...(withheld.length > 0 ? { withheld } : {}),
  });

  it("gives each varied entry one difference per group: mean reward shown minus mean reward withheld", () => {
    const contrasts = groupContrasts([
      observation("a", 1, ["G1", "G2"]),
      observation("a", 1, ["G1"], ["G2"]),
      observation("a", 0, ["G2"], ["G1"]),
      observation("b", 0, ["G1", "G2"]),
      observation("b", 1, ["G2"], ["G1"]),
    ]);
    // G1 in a: shown {1, 1} vs withheld {0} = +1; in b: shown {0} vs withheld {1} = -1.
    expect(contrasts.get("G1")).toEqual({ n: 2, sum: 0, sumSquares: 2 });
    // G2 in a: shown {1, 0} vs withheld {1} = -0.5; b has no withheld arm for G2.
    expect(contrasts.get("G2")).toEqual({ n: 1, sum: -0.5, sumSquares: 0.25 });
  });

  it("skips a group whose entry has only one arm, and rollouts without a group", () => {
    const contrasts = groupContrasts([
      observation("a", 1, [], ["G1"]),
      observation("a", 0, [], ["G1"]),
      { trajectoryId: "x", reward: 1, groupMeanReward: 0, shown: ["G1"], cited: [], withheld: ["G2"] },
    ]);
    expect(contrasts.size).toBe(0);
  });

  it("counts a group only where the entry applies: its similarity at least half its best over the batch", () => {
    const similar = (
      group: string,
      reward: number,
      shown: string[],
      withheld: string[],
      similarity: number,
    ) => ({
      ...observation(group, reward, shown, withheld),
      similarity: { G1: similarity },
    });
    const batch = [
      // Its own kind of task (similarity 0.4 and 0.3): a lesson that hurts, -1 in both.
      similar("a", 0, ["G1"], [], 0.4),
      similar("a", 1, [], ["G1"], 0.4),
      similar("b", 0, ["G1"], [], 0.3),
      similar("b", 1, [], ["G1"], 0.3),
      // A task it never addresses (0.1 < 0.5 * 0.4): the same reward either way, left out of the contrast.
      similar("c", 1, ["G1"], [], 0.1),
      similar("c", 1, [], ["G1"], 0.1),
      similar("d", 0, ["G1"], [], 0.1),
      similar("d", 0, [], ["G1"], 0.1),
    ];
    expect(groupContrasts(batch).get("G1")).toEqual({ n: 2, sum: -2, sumSquares: 2 });
    // Relevance 0 counts every group, diluting the same evidence to -0.5 a group.
    expect(groupContrasts(batch, 0).get("G1")).toEqual({ n: 4, sum: -2, sumSquares: 2 });
    // Without recorded similarities every group counts.
    const plain = batch.map(({ similarity: _, ...rest }) => rest);
    expect(groupContrasts(plain).get("G1")).toEqual({ n: 4, sum: -2, sumSquares: 2 });
  });

  it("adds the contrast to the entry's stats delta beside the shared counters", () => {
    const deltas = creditDeltas(
      [observation("a", 1, ["G1"]), observation("a", 0, [], ["G1"]), observation("a", 1, [], ["G1"])],
      { version: 3, attribution: "shown" },
    );
    expect(deltas).toEqual([
      {
        id: "G1",
        shown: 1,
        success: 1,
        sumDelta: 1,
        lastUsedVersion: 3,
        contrast: { n: 1, sum: 0.5, sumSquares: 0.25 },
      },
    ]);
  });
});
