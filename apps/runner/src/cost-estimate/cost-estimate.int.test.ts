// The dry-run estimate against what sim runs measure: a small pilot run calibrates it (the model's verbosity, calls
// per rollout, how often groups are mixed), then the estimate of another setup is checked against that run.
import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { learn, learnDryRun } from "../commands/learn.js";
import type { LearnCommandOptions } from "../commands/learn-command-options.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import type { Range } from "./estimate-run-cost.js";

const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };

function within(range: Range, measured: number, tolerance = 0.3) {
  return {
    expected: range[1],
    measured,
    ratio: range[1] / measured,
    ok: Math.abs(range[1] - measured) <= tolerance * measured,
  };
}

describe("learn --dry-run", () => {
  it("estimates calls and tokens per role within 30% of a measured sim run", async () => {
    await using directory = await temporaryDirectory("tfgrpo-estimate-");
    await using sim = await startSimWorld({ seed: 7 });
    const file = async (name: string, size: number, split: "train" | "val", seed: number) => {
      const target = path.join(directory.path, name);
      await writeSuiteJsonl(target, createSuite({ domain: "math", seed, size, split }));
      return target;
    };
    const db = path.join(directory.path, "tfgrpo.db");
    const base = {
      domain: "math",
      concurrency: 8,
      groundTruth: true,
      seed: 7,
      db,
      valK: 1,
      // A fixed-sample gate: the sequential one stops when its evidence settles, so its validation is a range that one
      // run cannot check to 30% (estimate-run-cost.test.ts checks the range).
      gate: "paired-t",
      // The paper's exposure: the estimate prices every attempt with the whole library in its prompt. With exposure,
      // open entries are withheld from half of each group's attempts, and a run costs up to a third less than
      // estimated (the safe side for a budget; docs/models.md).
      exposure: false,
      precheck: 0,
      mode: "tools",
      baseline: true,
      localRoles: "actor,critic,curator",
      trace: false,
      temperature: 0.7,
      evalTemperature: 0.3,
      config: sim.config,
    } as const;
    // The pilot: a few tasks, one epoch.
    await learn(
      {
        ...base,
        train: await file("pilot-train.jsonl", 4, "train", 11),
        val: await file("pilot-val.jsonl", 3, "val", 11),
        epochs: 1,
        groupSize: 3,
      },
      quiet,
    );
    const setup: LearnCommandOptions = {
      ...base,
      train: await file("train.jsonl", 8, "train", 12),
      val: await file("val.jsonl", 4, "val", 12),
      epochs: 2,
      groupSize: 4,
      batchSize: 4,
    };
    let printed = "";
    const estimate = await learnDryRun(setup, {
      ...quiet,
      stdout: { write: (text: string) => (printed += text) },
    });
    expect(printed).toMatch(/^learn dry run, no model called: \d+ \(\d+–\d+\) rollouts/);
    expect(estimate.assumptions.source).toMatch(/^measured in run learn-/);

    const before = structuredClone(sim.server.stats().byKind);
    const outcome = await learn(setup, quiet);
    const after = sim.server.stats().byKind;
    const calls = (...kinds: Array<keyof typeof after>) =>
      kinds.reduce((total, kind) => total + (after[kind] ?? 0) - (before[kind] ?? 0), 0);
    const store = await createStore(db);
    const usage = await store.getUsageTotals(outcome.runId);
    await store.close();
    const role = (name: "actor" | "critic" | "curator") =>
      estimate.roles.find((entry) => entry.role === name)!;
    const checks = {
      actorCalls: within(role("actor").calls, calls("actor")),
      actorInput: within(role("actor").inputTokens, usage.byRole.actor!.inputTokens),
      actorOutput: within(role("actor").outputTokens, usage.byRole.actor!.outputTokens),
      criticCalls: within(role("critic").calls, calls("trajectory-summary", "group-advantage")),
      criticInput: within(role("critic").inputTokens, usage.byRole.critic!.inputTokens),
      criticOutput: within(role("critic").outputTokens, usage.byRole.critic!.outputTokens),
      curatorCalls: within(role("curator").calls, calls("consolidation", "conflict-check")),
      totalTokens: within(
        estimate.roles.reduce(
          (total, entry) => [0, total[1]! + entry.inputTokens[1] + entry.outputTokens[1], 0],
          [0, 0, 0],
        ) as Range,
        usage.total.inputTokens + usage.total.outputTokens,
      ),
    };
    for (const [name, check] of Object.entries(checks))
      expect({ name, ...check }).toMatchObject({ name, ok: true });
  }, 240_000);
});
