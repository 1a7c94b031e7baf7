import { describe, expect, it } from "vitest";
import { analyseGroup } from "./group-analysis.js";
import { readSummary } from "./summary-reading.js";
import { contrastTools } from "./tool-contrast.js";
import { readTrajectory } from "./trajectory-evidence.js";

describe("a team's own tools in the critic's evidence", () => {
  it("reads a tool output that starts with Error: as the output (a refused call)", () => {
    const evidence = readTrajectory(
      [
        "Problem:",
        "Reassign ticket T-5 to Alice Chen.",
        "",
        "Step 1 (assistant):",
        "Tool call update_ticket:",
        'Arguments: {"id":"T-5","assignee":"Alice Chen"}',
        "Output:",
        'Error: unknown user id "Alice Chen"',
        "",
        "Final answer: done",
      ].join("\n"),
    );
    expect(evidence.events).toEqual([
      {
        kind: "tool",
        name: "update_ticket",
        arguments: '{"id":"T-5","assignee":"Alice Chen"}',
        output: 'Error: unknown user id "Alice Chen"',
      },
    ]);
  });

  it("finds the lookup a winner made before the call a loser's value was refused for", () => {
    const winner = readSummary(
      1,
      1,
      [
        'Step 1: Called find_user with {"name":"Alice Chen"}; it answered.',
        'Step 2: Called update_ticket with {"id":"T-5","assignee":"u-alice"}; it answered.',
      ].join("\n"),
    );
    const loser = readSummary(
      2,
      0,
      'Step 1: Called update_ticket with {"id":"T-5","assignee":"Alice Chen"}; it refused: unknown user id.',
    );
    expect(loser.tools).toEqual([
      { name: "update_ticket", args: { id: "T-5", assignee: "Alice Chen" }, refused: true },
    ]);
    const finding = contrastTools(loser.tools, winner.tools, "attempt 1");
    expect(finding).toMatchObject({
      key: "look-up-first:update_ticket|assignee",
      fill: { tool: "update_ticket", field: "assignee", lookup: "find_user", refused: '"Alice Chen"' },
    });
    expect(analyseGroup("Reassign ticket T-5 to Alice Chen.", [winner, loser]).findings[0]?.key).toBe(
      "look-up-first:update_ticket|assignee",
    );
    // Nothing to learn when the loser was never refused, or the winner made no other call first.
    expect(contrastTools(winner.tools, winner.tools, "attempt 1")).toBeNull();
    expect(contrastTools(loser.tools, winner.tools.slice(1), "attempt 1")).toBeNull();
  });
});
