import { describe, expect, it } from "vitest";
import { findOppositePhrasings, instructionSignatures, oppositeAction } from "./opposite-phrasings.js";
import { readRealLibrary } from "./testing/index.js";

describe("instructionSignatures", () => {
  it("reads cues, antonyms and clause-initial imperatives", () => {
    expect([...instructionSignatures("Always verify the final answer with code.").strong]).toEqual([
      ["verify final", 1],
    ]);
    expect([...instructionSignatures("Never verify the final answer; trust the derivation.").strong]).toEqual(
      [
        ["verify final", -1],
        ["trust deriv", 1],
      ],
    );
    expect([...instructionSignatures("When counting, exclude both endpoints.").strong]).toEqual([
      ["includ endpoint", -1],
    ]);
    expect([...instructionSignatures("Don't re-check small cases.").strong]).toEqual([["check small", -1]]);
    // A condition clause without a cue gives no instruction.
    expect(instructionSignatures("When the search fails").strong.size).toBe(0);
  });
});

describe("findOppositePhrasings", () => {
  const texts = [
    "When counting integers in a closed range, always include both endpoints.",
    "When counting integers in a closed range, exclude both endpoints.",
    "Always verify the final answer with code before submitting.",
    "Do not verify the final answer with code; it wastes steps.",
    "When a search returns nothing, do not retry the same query; change keywords.",
    "When a search returns nothing, retry the same query immediately.",
    "Verify the final answer with code.",
  ];
  const signatures = texts.map(instructionSignatures);

  it("pairs opposite instructions on the same action, via an inverted index", () => {
    expect(findOppositePhrasings(signatures)).toEqual([
      { a: 0, b: 1, action: "includ endpoint" },
      { a: 2, b: 3, action: "verify final" },
      { a: 3, b: 6, action: "verify final" },
      { a: 4, b: 5, action: "retry same" },
    ]);
  });

  it("respects the accept filter and caps pairs per action", () => {
    expect(findOppositePhrasings(signatures, { accept: (a, b) => a === 4 || b === 4 })).toEqual([
      { a: 4, b: 5, action: "retry same" },
    ]);
    expect(
      findOppositePhrasings(signatures, { maxPairsPerAction: 1 }).filter((p) => p.action === "verify final"),
    ).toHaveLength(1);
  });

  it("tells a weak (first-stem) opposite from a strong one", () => {
    const a = instructionSignatures("Always verify results.");
    const b = instructionSignatures("Never verify twice.");
    expect(oppositeAction(a, b, "strong")).toBeNull();
    expect(oppositeAction(a, b, "weak")).toBe("verify");
  });

  it("finds no opposite pairs in the real libraries (a model-written library without flagrant contradictions)", () => {
    const texts = [...readRealLibrary("math"), ...readRealLibrary("web")].map((entry) => entry.text);
    expect(findOppositePhrasings(texts.map(instructionSignatures))).toEqual([]);
  });
});
