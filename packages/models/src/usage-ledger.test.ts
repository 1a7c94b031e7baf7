import type { Usage } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createBudget } from "./budget.js";
import { computeCostUsd } from "./compute-cost.js";
import { createUsageLedger } from "./usage-ledger.js";

const usage = (role: Usage["role"], costUsd: number, inputTokens = 100): Usage => ({
  role,
  model: "m",
  inputTokens,
  cachedInputTokens: 20,
  outputTokens: 10,
  costUsd,
  latencyMs: 50,
});

describe("computeCostUsd", () => {
  it("bills cached input at its own price, out of the input count", () => {
    const prices = { input: 2.5, cachedInput: 1.25, output: 10 };
    expect(computeCostUsd({ inputTokens: 1000, cachedInputTokens: 400, outputTokens: 200 }, prices)).toBe(
      (600 * 2.5 + 400 * 1.25 + 200 * 10) / 1_000_000,
    );
    // A provider reporting more cached than input tokens is not allowed to make the cost negative.
    expect(computeCostUsd({ inputTokens: 10, cachedInputTokens: 50, outputTokens: 0 }, prices)).toBe(
      12.5 / 1_000_000,
    );
    expect(computeCostUsd({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, prices)).toBe(0);
  });
});

describe("createUsageLedger", () => {
  it("keeps records and totals overall and per role", () => {
    const seen: Usage[] = [];
    const ledger = createUsageLedger({ onRecord: (record) => seen.push(record) });
    ledger.record(usage("actor", 0.25));
    ledger.record(usage("critic", 0.5, 300));
    ledger.record(usage("actor", 0.125));
    expect(ledger.records).toHaveLength(3);
    expect(seen).toEqual(ledger.records);
    expect(ledger.total).toEqual({
      calls: 3,
      inputTokens: 500,
      cachedInputTokens: 60,
      outputTokens: 30,
      costUsd: 0.875,
      latencyMs: 150,
    });
    expect(ledger.byRole("actor")).toMatchObject({ calls: 2, costUsd: 0.375 });
    expect(ledger.byRole("judge")).toMatchObject({ calls: 0, costUsd: 0 });
    expect(Object.keys(ledger.perRole())).toEqual(["actor", "critic"]);
  });
});

describe("createBudget", () => {
  it("allows calls until the limit is reached, then refuses them and tells listeners once", () => {
    const budget = createBudget(1);
    const told: number[] = [];
    budget.onExceeded((b) => told.push(b.spentUsd));
    budget.charge(0.75);
    expect(() => budget.assertAvailable("actor")).not.toThrow();
    expect(budget.remainingUsd).toBe(0.25);
    budget.charge(0.5);
    budget.charge(0.25);
    expect(budget.exceeded).toBe(true);
    expect(budget.remainingUsd).toBe(-0.5);
    expect(told).toEqual([1.25]);
    expect(() => budget.assertAvailable("critic")).toThrow(
      "budget of $1 reached ($1.500000 spent): no new critic call is sent",
    );
  });

  it("has no limit by default and refuses a bad limit", () => {
    const budget = createBudget();
    budget.charge(1e9);
    expect(budget.exceeded).toBe(false);
    expect(budget.remainingUsd).toBe(Number.POSITIVE_INFINITY);
    expect(() => createBudget(-1)).toThrow("budget.usd must be a number >= 0");
    expect(() => createBudget(Number.NaN)).toThrow("budget.usd must be a number >= 0");
  });
});
