import { describe, expect, it } from "vitest";
import { pairedRounds } from "./paired-rounds.js";

describe("pairedRounds", () => {
  it("pairs attempt by attempt, leaving out a task's attempt that either version lacks", () => {
    const candidate = [
      [1, 0, 1],
      [1, null, 1],
    ];
    const head = [
      [0, 0, 1],
      [1, 1, null],
    ];
    expect(pairedRounds([candidate, head], 3)).toEqual({
      rounds: [
        { candidate: [1, 1], head: [0, 1] },
        { candidate: [0], head: [0] },
        { candidate: [1], head: [1] },
      ],
      candidateScores: [2 / 3, 1],
      headScores: [1 / 3, 1],
    });
  });

  it("takes only the rounds asked for and drops rounds without a pair", () => {
    expect(pairedRounds([[[null, 1]], [[1, 0]]], 1)).toEqual({
      rounds: [],
      candidateScores: [],
      headScores: [],
    });
    expect(pairedRounds([[[null, 1]], [[1, 0]]], 2).rounds).toEqual([{ candidate: [1], head: [0] }]);
  });
});
