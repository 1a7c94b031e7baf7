import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createModels, loadModelsConfig } from "@tfgrpo/models";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { countingReport } from "@tfgrpo/sim/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOnlineLearner } from "./online-learner.js";
import type { OnlineOutcome } from "./online-outcome.js";

// The learner against a real SQLite store and the SIMULATED critic, curator and embedder over HTTP; the agent's
// outcomes are scripted (what the sim policy does is covered by the runner's acceptance test): here the script
// makes a promoted version go bad, so the head rollback (to the empty library) and its record can be checked.

const modelsFile = fileURLToPath(new URL("../../../../examples/models.sim.yaml", import.meta.url));
let server: SimServer;
let directory: string;
let store: Store;

beforeAll(async () => {
  server = await createSimServer({ seed: 5 });
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-learner-"));
  store = await createStore(path.join(directory, "w.sqlite"));
});
afterAll(async () => {
  await store?.close();
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

function counting(index: number, success: boolean, version: number | null): OnlineOutcome {
  return {
    selectionId: `s${index}`,
    domain: "math",
    version,
    ...countingReport(index, success),
    reward: success ? 1 : 0,
    success,
    feedback: null,
  };
}

describe("online learner (real store, SIMULATED critic and curator)", () => {
  it("reflects, canaries, promotes through the gate, then rolls a promoted version back when it goes bad", async () => {
    const models = createModels(
      await loadModelsConfig(modelsFile, { env: { SIM_PORT: String(server.port) } }),
    );
    const learner = createOnlineLearner({
      domain: "math",
      runId: "learner-test",
      store,
      models,
      seed: 3,
      config: {
        trigger: { batchSize: 10, window: 10, dropBelow: 0, cooldown: 5 },
        rollout: {
          canaryShare: 0.5,
          rollbackMargin: 0,
          rollbackWindow: 6,
          minReference: 6,
        },
      },
    });
    await learner.start();
    let promotedAt: number | null = null;
    for (let index = 0; index < 80 && !learner.events.some((e) => e.type === "rollback"); index++) {
      const { version, arm } = learner.route();
      // Before any version: 6 in 10 succeed; the canary always does; once promoted, the version fails (drift in it).
      const success = promotedAt === null ? arm === "canary" || index % 10 < 6 : false;
      await learner.observe(counting(index, success, version));
      if (
        promotedAt === null &&
        learner.events.some((e) => e.type === "gate" && e.decision.decision === "commit")
      )
        promotedAt = index;
    }
    // Reflections that fall due while the canary runs hold their proposals (they write nothing) until its decision.
    const holding = learner.events.filter((e) => e.type === "reflection" && e.version === null && e.held > 0);
    const types = learner.events.filter((e) => !holding.includes(e)).map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(["reflection", "canary-start", "gate"]);
    const firstGate = learner.events.findIndex((e) => e.type === "gate");
    for (const event of holding) expect(learner.events.indexOf(event)).toBeLessThan(firstGate);
    // The first reflection after the decision consolidated the last held proposals with its own.
    expect(holding.length).toBeGreaterThan(0);
    const after = learner.events.slice(firstGate).find((e) => e.type === "reflection");
    const lastHeld = holding.at(-1);
    if (after?.type !== "reflection" || lastHeld?.type !== "reflection")
      throw new Error("no reflection after the gate");
    expect(after.fromHeld).toBe(lastHeld.held);
    const gate = learner.events.find((e) => e.type === "gate")!;
    if (gate.type !== "gate") throw new Error("unreachable");
    expect(gate).toMatchObject({
      kind: "gate",
      decision: { decision: "commit", details: { rule: "sequential" } },
    });
    // The sequential test looked only once both arms had 10 outcomes, and decided when its ratio crossed ln 20.
    const details = gate.decision.details as {
      canaryOutcomes: number;
      headOutcomes: number;
      logLikelihoodRatio: number;
    };
    expect(details.canaryOutcomes).toBeGreaterThanOrEqual(10);
    expect(details.headOutcomes).toBeGreaterThanOrEqual(10);
    expect(details.logLikelihoodRatio).toBeGreaterThanOrEqual(Math.log(20));
    const rollback = learner.events.find((e) => e.type === "rollback")!;
    if (rollback.type !== "rollback") throw new Error("unreachable");
    expect(rollback).toMatchObject({ stage: "head", from: gate.version, to: null });
    expect(rollback.referenceRate - rollback.servedRate).toBeGreaterThan(0.2);
    expect(rollback.window).toBe(6);
    // The rollback is a committed version with nothing visible, its numbers in the version's message.
    const restored = await store.getVersionInfo("math", rollback.restoredAs!);
    expect(restored).toMatchObject({ state: "committed", runId: "learner-test" });
    expect(restored!.message).toMatch(
      /online rollback: v\d+ succeeded on 0\.000 of its 6 tasks vs 0\.\d+ of the previous version's \d+: difference -0\.\d+, 0\.\d+ upper bound -0\.\d+ below -0\.000/,
    );
    const head = await store.getHead("math");
    expect(head!.version).toBe(rollback.restoredAs);
    expect(head!.experiences.filter((e) => e.status !== "archived")).toEqual([]);
    expect(learner.state().head).toBe(rollback.restoredAs);
    // The committed version kept its gate decision with the numbers.
    const info = await store.getVersionInfo("math", gate.version);
    expect(info!.gate).toMatchObject({ decision: "commit", candidateScore: gate.decision.candidateScore });
  }, 60_000);
});
