import type { UsageTotals } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { renderStepTable } from "./render-step-table.js";
import type { StepRecord } from "./step-record.js";

const usage = (inputTokens: number, cachedInputTokens: number, costUsd: number): UsageTotals => ({
  calls: 1,
  inputTokens,
  cachedInputTokens,
  outputTokens: 0,
  costUsd,
  latencyMs: 0,
});

function step(n: number, usageByRole: StepRecord["usageByRole"]): StepRecord {
  return {
    epoch: 1,
    step: n,
    tasks: 1,
    rollouts: 1,
    trainReward: 0.5,
    groups: 1,
    skippedGroups: 0,
    proposals: 0,
    operations: 0,
    headBefore: null,
    candidateVersion: null,
    headAfter: null,
    librarySize: 0,
    libraryStates: {},
    candidateScore: null,
    headScore: null,
    baselineScore: null,
    decision: "no-change",
    gateReason: "",
    meanToolCalls: 0,
    meanTokens: 0,
    usageByRole,
  };
}

describe("renderStepTable", () => {
  it("shows each step's own tokens, cost and prompt-cache hit rate per role, from running totals", () => {
    const table = renderStepTable([
      step(1, { actor: usage(1000, 250, 0.01) }),
      // Running totals: step 2 itself used 3000 input tokens of which 2700 cached (90%).
      step(2, { actor: usage(4000, 2950, 0.03), critic: usage(500, 0, 0.002) }),
    ]);
    const [header, , first, second] = table.split("\n");
    expect(header).toContain("actor tok/$/cache");
    expect(first).toContain("1.0k/0.0100/25%");
    expect(second).toContain("3.0k/0.0200/90%");
    expect(second).toContain("500/0.0020/0%");
  });
});
