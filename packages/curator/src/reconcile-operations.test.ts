import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { reconcileOperations } from "./reconcile-operations.js";

const library = new Map(
  ["G1", "G2", "G3", "G4"].map((id) => [id, makeExperience({ id, text: `When ${id} applies, act.` })]),
);

describe("reconcileOperations", () => {
  it("lets the first operation on an id win and keeps later rewrites as candidates", () => {
    const { operations, notes } = reconcileOperations(
      [
        { op: "modify", id: "G1", text: "When G1 applies, act fast.", reason: "a" },
        { op: "modify", id: "G1", text: "When G1 applies, act slowly.", reason: "b" },
        { op: "delete", id: "G1", reason: "c" },
        { op: "merge", ids: ["G1", "G2", "G3"], text: "When G2 or G3 apply, act.", reason: "d" },
        { op: "merge", ids: ["G2", "G4"], text: "When G4 applies, act.", reason: "e" },
        { op: "keep", id: "G4", reason: "f" },
        { op: "keep", id: "G2", reason: "g" },
      ],
      library,
    );
    expect(operations).toEqual([
      { op: "modify", id: "G1", text: "When G1 applies, act fast.", reason: "a" },
      {
        op: "add",
        text: "When G1 applies, act slowly.",
        status: "candidate",
        reason: "alternative rewrite of G1: b",
      },
      { op: "merge", ids: ["G2", "G3"], text: "When G2 or G3 apply, act.", reason: "d" },
      { op: "modify", id: "G4", text: "When G4 applies, act.", reason: "e" },
    ]);
    expect(notes).toEqual([
      "G1 already modified: its other rewrite is kept as a new candidate",
      "G1 already modified: delete dropped",
      "merge of G1, G2, G3: G1 already changed, left out",
      "merge of G2, G4: G2 already changed, left out",
    ]);
  });

  it("drops additions that repeat the library or each other, and keeps untouched keeps once", () => {
    const { operations } = reconcileOperations(
      [
        { op: "add", text: "when g1 applies act", reason: "dup of library" },
        { op: "add", text: "When new, try.", reason: "x" },
        { op: "add", text: "When new, try!", reason: "y" },
        { op: "keep", id: "G3", reason: "k" },
        { op: "keep", id: "G3", reason: "k2" },
      ],
      library,
    );
    expect(operations).toEqual([
      { op: "add", text: "When new, try.", reason: "x" },
      { op: "keep", id: "G3", reason: "k" },
    ]);
  });

  it("drops vague additions and rewrites when asked to", () => {
    const { operations, notes } = reconcileOperations(
      [
        { op: "add", text: "Be careful with calculations.", reason: "x" },
        { op: "modify", id: "G1", text: "Be careful.", reason: "y" },
        { op: "add", text: "When rounding money, round once at the end.", reason: "z" },
      ],
      library,
      { minContentWords: 4 },
    );
    expect(operations).toEqual([
      { op: "add", text: "When rounding money, round once at the end.", reason: "z" },
    ]);
    expect(notes).toEqual([
      'too vague to act on, dropped: "Be careful with calculations."',
      'too vague to act on, dropped: "Be careful."',
    ]);
  });
});
