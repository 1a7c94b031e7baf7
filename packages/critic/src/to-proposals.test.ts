import { describe, expect, it } from "vitest";
import { toProposals } from "./to-proposals.js";

const experiences = [
  { id: "G0", text: "When counting integers in a closed range, include both endpoints." },
  { id: "G3", text: "Check the discriminant before solving a quadratic." },
];
const options = { groupId: "run1:s0:t7", taskId: "t7", experiences };

describe("toProposals", () => {
  it("maps the model's operations to proposals with deterministic ids", () => {
    const { proposals, dropped } = toProposals(
      [
        {
          option: "add",
          experience: "[G9]. When a sum telescopes, write out three terms first.",
          reason: "won",
        },
        {
          option: "modify",
          experience_id: "[G3]",
          experience: "Check the discriminant sign first.",
          reason: "r",
        },
        { option: "delete", experience_id: "g0", reason: "misled attempt 2" },
      ],
      options,
    );
    expect(dropped).toEqual([]);
    expect(proposals).toEqual([
      {
        proposalId: "run1:s0:t7:P1",
        op: "add",
        text: "When a sum telescopes, write out three terms first.",
        reason: "won",
        groupId: "run1:s0:t7",
        taskId: "t7",
      },
      {
        proposalId: "run1:s0:t7:P2",
        op: "modify",
        id: "G3",
        text: "Check the discriminant sign first.",
        reason: "r",
        groupId: "run1:s0:t7",
        taskId: "t7",
      },
      {
        proposalId: "run1:s0:t7:P3",
        op: "delete",
        id: "G0",
        reason: "misled attempt 2",
        groupId: "run1:s0:t7",
        taskId: "t7",
      },
    ]);
  });

  it("drops unknown ids, adds without text, no-op modifies, repeats and a 4th operation, with reasons", () => {
    const { proposals, dropped } = toProposals(
      [
        { option: "modify", experience_id: "G42", experience: "x", reason: "r" },
        { option: "add", experience: "   ", reason: "r" },
        { option: "delete", reason: "no id" },
        { option: "modify", experience_id: "G3", experience: experiences[1]!.text, reason: "same" },
        { option: "add", experience: "A", reason: "1" },
        { option: "add", experience: "a", reason: "again" },
        { option: "add", experience: "B", reason: "2" },
        { option: "add", experience: "C", reason: "3" },
        { option: "add", experience: "D", reason: "4" },
      ],
      options,
    );
    expect(proposals.map((p) => p.text)).toEqual(["A", "B", "C"]);
    expect(dropped.map((d) => [d.index, d.reason])).toEqual([
      [0, "modify names G42, which is not among the current experiences"],
      [1, "add without experience text"],
      [2, "delete without an experience id"],
      [3, "modify of G3 does not change its text"],
      [5, "repeats an earlier operation of the same answer"],
      [8, "more than 3 operations"],
    ]);
  });
});
