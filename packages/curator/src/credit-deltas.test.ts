import { describe, expect, it } from "vitest";
import { compareExperienceIds, creditDeltas } from "./credit-deltas.js";

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
