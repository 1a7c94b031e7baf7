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

describe("toProposals: where a lesson does not apply", () => {
  it("carries when_not as the proposal's whenNot, without a repeated lead-in, and never on a delete", () => {
    const { proposals } = toProposals(
      [
        {
          option: "add",
          experience: "When combining group means, weight each by its size.",
          when_not: "  Not when every group has the same size. ",
          reason: "won",
        },
        {
          option: "modify",
          experience_id: "G3",
          experience: "For quadratics, check the discriminant before solving.",
          when_not: "only complex roots are asked for",
          reason: "won",
        },
        {
          option: "add",
          experience: "When rounding, keep full precision until the end.",
          when_not: "none",
          reason: "r",
        },
        { option: "add", experience: "When searching, use the full name.", when_not: null, reason: "r" },
        { option: "delete", experience_id: "G0", when_not: "anything", reason: "misled" },
      ],
      { ...options, maxOperations: 5 },
    );
    expect(proposals.map((proposal) => proposal.whenNot)).toEqual([
      "every group has the same size",
      "only complex roots are asked for",
      undefined,
      undefined,
      undefined,
    ]);
  });
});
