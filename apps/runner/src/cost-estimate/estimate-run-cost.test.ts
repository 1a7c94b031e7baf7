import type { ModelsConfig } from "@tfgrpo/models";
import { describe, expect, it } from "vitest";
import { defaultAssumptions, estimateRunCost, type RunShape } from "./estimate-run-cost.js";

const prompts = {
  actorPrompt: 500,
  summaryOverhead: 300,
  advantageOverhead: 400,
  consolidationOverhead: 600,
};
const noRoles = { roles: {} } as unknown as ModelsConfig;
// One accuracy for all three scenarios: only the validation samples differ between them.
const assumptions = { ...defaultAssumptions("tools"), accuracy: [0.5, 0.5, 0.5] as [number, number, number] };
const shape: RunShape = {
  kind: "learn",
  trainSize: 8,
  valSize: 4,
  epochs: 2,
  groupSize: 4,
  batchSize: 4,
  valK: 1,
  mode: "tools",
};

describe("estimateRunCost: validation rollouts", () => {
  it("a fixed-sample gate validates each candidate on valK samples per task", () => {
    const [low, expected, high] = estimateRunCost(shape, prompts, assumptions, noRoles).rollouts;
    expect(low).toBe(expected);
    expect(high).toBe(expected);
  });

  it("a sequential gate's candidates take a range of rounds, candidate and head on each", () => {
    const fixed = estimateRunCost(shape, prompts, assumptions, noRoles).rollouts[1];
    const sequential = estimateRunCost(
      { ...shape, candidateValidationSamples: [2, 14, 30] },
      prompts,
      assumptions,
      noRoles,
    ).rollouts;
    // Training (2 x 8 x 4 = 64) and the baseline (4 x 1) are the same; each step with proposals validates the
    // candidate and the head 2 x rounds x 4 instead of 1 x 4.
    const training = 64 + 4;
    const steps = (fixed - training) / 4;
    expect(steps).toBeGreaterThan(0);
    expect(sequential).toEqual([2, 14, 30].map((rounds) => Math.round(training + steps * 4 * 2 * rounds)));
  });
});

describe("estimateRunCost: rollouts of the team's agent", () => {
  const prices = { input: 1, cachedInput: 0.5, output: 4 };
  const config = {
    roles: {
      actor: { prices: { input: 100, cachedInput: 100, output: 100 } },
      critic: { prices },
      curator: { prices },
    },
  } as unknown as ModelsConfig;

  it("counts the agent's calls and tokens instead of the actor's, unpriced and out of the total", () => {
    const own = estimateRunCost(shape, prompts, assumptions, config);
    const agent = estimateRunCost(shape, prompts, assumptions, config, { agent: {} });
    expect(agent.roles.map((role) => role.role)).toEqual(["agent", "critic", "curator"]);
    const [rollouts] = agent.roles;
    expect(rollouts).toMatchObject({ priced: false, costUsd: [0, 0, 0] });
    expect(rollouts!.calls).toEqual(own.roles[0]!.calls);
    const tfgrpo = agent.roles.slice(1);
    expect(agent.total.costUsd[1]).toBeCloseTo(tfgrpo.reduce((sum, role) => sum + role.costUsd[1], 0));
    expect(agent.total.costUsd[1]).toBeLessThan(own.total.costUsd[1]);
  });

  it("prices the agent's rollouts at the team's prices when given", () => {
    const priced = estimateRunCost(shape, prompts, assumptions, config, { agent: { prices } });
    const [rollouts] = priced.roles;
    expect(rollouts!.priced).toBe(true);
    const expected =
      (rollouts!.inputTokens[1] * prices.input + rollouts!.outputTokens[1] * prices.output) / 1e6;
    expect(rollouts!.costUsd[1]).toBeCloseTo(expected);
    expect(priced.total.costUsd[1]).toBeCloseTo(priced.roles.reduce((sum, role) => sum + role.costUsd[1], 0));
  });
});
