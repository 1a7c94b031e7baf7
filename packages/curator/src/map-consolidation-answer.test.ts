import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import type { Suggestion } from "./consolidation-prepass.js";
import { fallbackOperations, mapConsolidationAnswer } from "./map-consolidation-answer.js";
import { countWords } from "./word-limit.js";

const library = new Map(
  [
    makeExperience({ id: "G1", text: "When counting, include endpoints." }),
    makeExperience({ id: "G2", text: "When searching, change keywords after an empty result." }),
    makeExperience({ id: "G3", text: "When rounding, read the requested precision." }),
    makeExperience({ id: "G4", status: "archived", text: "When lost, guess." }),
  ].map((entry) => [entry.id, entry]),
);
const suggestions: Suggestion[] = [
  {
    tempId: "P1",
    option: "add",
    text: "When a table is long, filter rows with code.",
    reason: "r1",
    sources: ["a", "b"],
  },
  {
    tempId: "P2",
    option: "modify",
    targetId: "G2",
    text: "When a search is empty, broaden terms.",
    reason: "r2",
    sources: ["c"],
  },
  { tempId: "P3", option: "delete", targetId: "G3", reason: "r3", sources: ["d"] },
];
const long = Array.from({ length: 40 }, (_, index) => `word${index}`).join(" ");

function map(operations: unknown[]) {
  return mapConsolidationAnswer({
    answer: { operations } as never,
    suggestions,
    library,
    wordLimit: 32,
  });
}

describe("mapConsolidationAnswer", () => {
  it("maps library-id operations through, with candidates for additions", () => {
    const { operations, notes } = map([
      { option: "add", experience: "When unsure, test a small case.", reason: "new" },
      {
        option: "modify",
        experience_id: "G1",
        experience: "When counting a closed range, include both endpoints.",
        reason: "clearer",
      },
      { option: "delete", experience_id: "G3", reason: "vague" },
      { option: "keep", experience_id: "G2" },
      {
        option: "merge",
        experience_ids: ["G1", "G2"],
        experience: "When counting or searching, be thorough.",
        reason: "overlap",
      },
    ]);
    expect(notes).toEqual([
      "the model left out 3 suggestion(s), not applied: P1 (add), P2 (modify G2), P3 (delete G3)",
    ]);
    expect(operations).toEqual([
      { op: "add", text: "When unsure, test a small case.", status: "candidate", reason: "new" },
      {
        op: "modify",
        id: "G1",
        text: "When counting a closed range, include both endpoints.",
        reason: "clearer",
      },
      { op: "delete", id: "G3", reason: "vague" },
      { op: "keep", id: "G2", reason: "curator keep" },
      { op: "merge", ids: ["G1", "G2"], text: "When counting or searching, be thorough.", reason: "overlap" },
    ]);
  });

  it("resolves suggestion ids: keep/modify of an addition adds, of a rewrite modifies its target", () => {
    const { operations } = map([
      { option: "keep", experience_id: "P1", reason: "good" },
      {
        option: "modify",
        experience_id: "P2",
        experience: "When a search is empty, broaden the terms.",
        reason: "tightened",
      },
      { option: "keep", experience_id: "P3" },
    ]);
    expect(operations).toEqual([
      {
        op: "add",
        text: "When a table is long, filter rows with code.",
        status: "candidate",
        reason: "r1 (from proposals a, b)",
      },
      {
        op: "modify",
        id: "G2",
        text: "When a search is empty, broaden the terms.",
        reason: "tightened (from proposals c)",
      },
      { op: "delete", id: "G3", reason: "r3 (from proposals d)" },
    ]);
  });

  it("folds suggestions into merges: with two library ids a merge, with one a rewrite, with none an addition", () => {
    const { operations } = map([
      {
        option: "merge",
        experience_ids: ["P2", "G1"],
        experience: "When a lookup is empty, widen it.",
        reason: "m1",
      },
      {
        option: "merge",
        experience_ids: ["P1", "G3"],
        experience: "When data is long, use code.",
        reason: "m2",
      },
      {
        option: "merge",
        experience_ids: ["P1"],
        experience: "When a table is long, use code.",
        reason: "m3",
      },
    ]);
    expect(operations).toEqual([
      {
        op: "merge",
        ids: ["G2", "G1"],
        text: "When a lookup is empty, widen it.",
        reason: "m1 (from proposals c)",
      },
      { op: "modify", id: "G3", text: "When data is long, use code.", reason: "m2 (from proposals a, b)" },
      {
        op: "add",
        text: "When a table is long, use code.",
        status: "candidate",
        reason: "m3 (from proposals a, b)",
      },
    ]);
  });

  it("drops operations on unknown or archived ids, ignores no-op rewrites, and shortens long texts", () => {
    const { operations, notes } = map([
      { option: "delete", experience_id: "G9", reason: "x" },
      { option: "modify", experience_id: "G4", experience: "When lost, ask.", reason: "x" },
      { option: "modify", experience_id: "G1", experience: "when counting include endpoints", reason: "x" },
      { option: "merge", experience_ids: ["G1", "G77"], experience: long, reason: "x" },
      { option: "delete", experience_id: "P1", reason: "not general" },
    ]);
    expect(notes).toEqual([
      "operation 1 (delete): G9 is not a live library entry, ignored",
      "operation 2 (modify): G4 is not a live library entry or a suggestion, ignored",
      "operation 3 (modify): G1 text unchanged, ignored",
      "operation 4 (merge): G77 is not a live library entry or a suggestion, left out of the merge",
      "operation 4 (merge): text over 32 words, shortened",
      "operation 5 (delete): suggestion P1 declined (from proposals a, b)",
      "the model left out 2 suggestion(s), not applied: P2 (modify G2), P3 (delete G3)",
    ]);
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ op: "modify", id: "G1" });
    expect(countWords((operations[0] as { text: string }).text)).toBeLessThanOrEqual(32);
  });
});

describe("left-out suggestions", () => {
  it("counts a suggestion the model wrote out again (without its id) as taken", () => {
    const { notes } = map([
      { option: "add", experience: "When a table is long, filter its rows with code.", reason: "kept" },
      { option: "keep", experience_id: "P2" },
    ]);
    expect(notes).toEqual(["the model left out 1 suggestion(s), not applied: P3 (delete G3)"]);
  });
});

describe("fallbackOperations", () => {
  it("keeps additions and rewrites as candidates and applies no deletion", () => {
    const { operations, notes } = fallbackOperations(
      [...suggestions, { tempId: "P4", option: "add", text: long, reason: "r4", sources: ["e"] }],
      32,
      "model answer unusable",
    );
    expect(operations.map((op) => op.op)).toEqual(["add", "add", "add"]);
    expect(operations[1]).toMatchObject({
      status: "candidate",
      text: "When a search is empty, broaden terms.",
      reason: "proposed rewrite of G2 kept as a candidate (model answer unusable): r2 (from proposals c)",
    });
    expect(countWords((operations[2] as { text: string }).text)).toBeLessThanOrEqual(32);
    expect(notes).toEqual([
      "P3 (delete G3) not applied: model answer unusable",
      "P4: text over 32 words, shortened",
    ]);
  });
});
