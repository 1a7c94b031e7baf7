import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DataPointType, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { createModels, loadModelsConfig, type Models } from "@tfgrpo/models";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { createStore, type Store } from "@tfgrpo/store";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseLearnerSnapshot } from "./learner-snapshot.js";
import { readLearnerStatus } from "./learner-status.js";
import { runLeasedLearner } from "./leased-learner.js";
import type { OnlineConfigInput } from "./online-config.js";
import { createOnlineLearner } from "./online-learner.js";
import { createOnlineMetrics, type OnlineMetrics } from "./online-metrics.js";

/** Collects on demand: the test reads the metrics as an exporter would get them. */
class InMemoryReader extends MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

// The leased learner in this process against a real SQLite store and the SIMULATED critic, curator and embedder over
// HTTP. Outcomes are written to the store as serving processes write them (selection, then report); the learner
// reads them by cursor. Restart, deadline, abandonment and pause are checked on the state the store holds.

const modelsFile = fileURLToPath(new URL("../../../../examples/models.sim.yaml", import.meta.url));
let server: SimServer;
let models: Models;
let directory: string;
let store: Store;
let n = 0;

beforeAll(async () => {
  server = await createSimServer({ seed: 5 });
  models = createModels(await loadModelsConfig(modelsFile, { env: { SIM_PORT: String(server.port) } }));
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-leased-"));
});
afterAll(async () => {
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});
beforeEach(async () => {
  store = await createStore(path.join(directory, `w${n++}.sqlite`));
  served = 0;
});
afterEach(async () => {
  await store.close();
});

const config: OnlineConfigInput = {
  trigger: { batchSize: 10, window: 10, dropBelow: 0, cooldown: 5 },
  rollout: {
    canaryShare: 0.5,
    minCanaryOutcomes: 4,
    canaryOutcomes: 40,
    minReference: 6,
    rollbackWindow: 8,
    rollbackMargin: 0.3,
  },
};

let served = 0;
/** One served and reported task, as an MCP server records it. */
async function report(version: number | null, success: boolean) {
  const index = served++;
  const lo = 3 + (index % 7);
  const hi = 40 + index;
  const selectionId = `s${index}`;
  await store.recordSelection({
    selectionId,
    domain: "math",
    version,
    entryIds: [],
    explorationIds: [],
    task: `How many multiples of 3 are there from ${lo} to ${hi}, inclusive?`,
    servedAt: new Date().toISOString(),
  });
  await store.reportOutcome({
    selectionId,
    reward: success ? 1 : 0,
    success,
    summary: [
      `Step 1: Ran code: print(sum(1 for i in range(${lo}, ${success ? `${hi} + 1` : hi}) if i % 3 == 0)) -> printed 12`,
      `Step 2: ${success ? "" : "ERROR - "}Gave the final answer 12.`,
    ].join("\n"),
  });
}

function start(
  holder: string,
  overrides: OnlineConfigInput = config,
  metrics?: OnlineMetrics,
  log?: (line: string) => void,
) {
  const stop = new AbortController();
  const done = runLeasedLearner({
    store,
    domain: "math",
    holder,
    host: "test",
    pid: 1,
    createLearner: () =>
      createOnlineLearner({ domain: "math", runId: holder, store, models, seed: 3, config: overrides }),
    pollMs: 20,
    settleMs: 0,
    lease: { ttlMs: 2000, renewEveryMs: 500 },
    signal: stop.signal,
    ...(metrics ? { metrics } : {}),
    ...(log ? { log } : {}),
  });
  return { stop: () => stop.abort(), done };
}

const stored = async () => parseLearnerSnapshot((await store.getLearner("math"))?.state ?? null);

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not reached: ${JSON.stringify(await read())}`);
}

/** Traffic (60% success on the head, the canary always succeeds) until a canary has `outcomes` outcomes. */
async function untilCanary(outcomes: number) {
  for (let i = 0; i < 80; i++) {
    const snapshot = await stored();
    if (snapshot?.canary && snapshot.canary.outcomes >= outcomes) return snapshot.canary;
    const canary = snapshot?.canary ?? null;
    const toCanary = canary !== null && i % 2 === 0;
    await report(toCanary ? canary.version : (snapshot?.head ?? null), toCanary || i % 10 < 6);
    await until(stored, (s) => s !== null && s.cursor >= served);
  }
  throw new Error("no canary");
}

describe("the leased learner (real store, SIMULATED critic and curator)", () => {
  it("a learner restarted mid-canary resumes it: the same version, its counts continue", async () => {
    const first = start("learner-a");
    const canary = await untilCanary(3);
    first.stop();
    await first.done;
    // Stopped cleanly: the lease is released at once and the canary is still out.
    const record = await store.getLearner("math");
    expect(Date.parse(record!.lease!.expiresAt)).toBeLessThanOrEqual(Date.now());
    expect((await store.getVersionInfo("math", canary.version))?.state).toBe("proposed");
    // Outcomes recorded while no learner runs are learned from later.
    await report(canary.version, true);
    const second = start("learner-b");
    const resumed = await until(stored, (s) => s?.runId === "learner-b" && s.cursor >= served);
    expect(resumed?.canary).toMatchObject({ version: canary.version, startCursor: canary.startCursor });
    expect(resumed!.canary!.outcomes).toBe(canary.outcomes + 1);
    // Traffic until the resumed canary is decided.
    for (let i = 0; (await stored())?.canary?.version === canary.version; i++) {
      expect(i).toBeLessThan(60);
      await report(i % 2 === 0 ? canary.version : canary.parent, i % 2 === 0 || i % 10 < 6);
      await until(stored, (s) => s !== null && s.cursor >= served);
    }
    second.stop();
    await second.done;
    const info = await store.getVersionInfo("math", canary.version);
    expect(info?.state).not.toBe("proposed");
    // Decided by the sequential test on all the canary's outcomes: those before the restart count.
    expect(info!.gate!.details).toMatchObject({ rule: "sequential" });
    expect(info!.gate!.tasks).toBeGreaterThan(canary.outcomes + 1);
  }, 60_000);

  it("a canary without enough reports by its deadline is decided inconclusive, with the reason stored", async () => {
    const reader = new InMemoryReader();
    const provider = new MeterProvider({ readers: [reader] });
    const learner = start(
      "learner-a",
      { ...config, rollout: { ...config.rollout, canaryDeadlineSeconds: 0.5 } },
      createOnlineMetrics("math", provider.getMeter("test")),
    );
    const canary = await untilCanary(0);
    const status = await until(
      () => readLearnerStatus(store, "math"),
      (s) => s.canary === null,
    );
    learner.stop();
    await learner.done;
    const info = await store.getVersionInfo("math", canary.version);
    expect(info).toMatchObject({ state: "rejected", gate: { decision: "inconclusive" } });
    expect(info!.gate!.details).toMatchObject({ rule: "deadline", canaryOutcomes: 0 });
    expect(info!.gate!.reason).toMatch(/^inconclusive: canary v\d+ had no decision by its deadline/);
    expect(status.decisions.at(-1)).toMatchObject({ kind: "inconclusive", version: canary.version });
    expect(status.proposed).toEqual([]);
    // The same story in the OpenTelemetry metrics: outcomes, one reflection, one inconclusive decision.
    const { resourceMetrics } = await reader.collect();
    const points = new Map(
      resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .map((metric) => [
          metric.descriptor.name,
          metric.dataPointType === DataPointType.SUM || metric.dataPointType === DataPointType.GAUGE
            ? metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }))
            : [],
        ]),
    );
    const total = (name: string) =>
      (points.get(name) ?? []).reduce((sum, point) => sum + (point.value as number), 0);
    expect(total("tfgrpo.online.outcomes")).toBe(served);
    expect(total("tfgrpo.online.reflections")).toBe(1);
    expect(points.get("tfgrpo.online.decisions")).toEqual([
      { attributes: { domain: "math", kind: "inconclusive", decision: "inconclusive" }, value: 1 },
    ]);
    await provider.shutdown();
  }, 60_000);

  it("a canary whose parent is no longer the head is rejected as abandoned; so is a stray proposed version", async () => {
    const first = start("learner-a");
    const canary = await untilCanary(1);
    first.stop();
    await first.done;
    // Meanwhile an operator commits on the head, and something leaves a proposed version behind.
    const head = await store.getHeadVersion("math");
    const edited = await store.applyOperations(
      "math",
      [{ op: "add", text: "Check the answer.", reason: "operator", status: "active" }],
      { parent: head, state: "committed" },
    );
    const stray = await store.applyOperations(
      "math",
      [{ op: "add", text: "Stray.", reason: "r", status: "candidate" }],
      { parent: edited.version.version, state: "proposed" },
    );
    const second = start("learner-b");
    await until(stored, (s) => s?.runId === "learner-b");
    second.stop();
    await second.done;
    const versions = await store.listVersions("math");
    expect(versions.filter((v) => v.state === "proposed")).toEqual([]);
    const abandoned = versions.find((v) => v.version === canary.version)!;
    expect(abandoned).toMatchObject({
      state: "rejected",
      gate: { decision: "reject", details: { rule: "abandoned" } },
    });
    expect(abandoned.gate!.reason).toMatch(/^abandoned: its parent .* is no longer the head/);
    expect(versions.find((v) => v.version === stray.version.version)!.gate!.reason).toMatch(/^abandoned: /);
    expect((await stored())?.canary).toBeNull();
  }, 60_000);

  it("paused, it keeps the lease and learns nothing; resumed, it catches up; a second learner waits", async () => {
    const lines: string[] = [];
    const first = start("learner-a", config, undefined, (line) => lines.push(line));
    await report(null, true);
    await until(stored, (s) => s !== null && s.cursor >= served);
    await store.setLearnerPaused("math", true);
    // The learner says when it has seen the pause: from then on it learns nothing, however long it is left.
    await until(
      async () => lines.join("\n"),
      (text) => /paused at outcome #\d+; learning nothing until resumed/.test(text),
    );
    const cursor = (await stored())!.cursor;
    await report(null, true);
    await report(null, false);
    const waiting = start("learner-b");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readLearnerStatus(store, "math")).toMatchObject({
      paused: true,
      cursor,
      behind: 2,
      lease: { holder: "learner-a", active: true },
    });
    await store.setLearnerPaused("math", false);
    await until(stored, (s) => s !== null && s.cursor >= served);
    // The holder stops: the waiting learner takes over at once (the lease was released) and resumes its state.
    first.stop();
    await first.done;
    const taken = await until(stored, (s) => s?.runId === "learner-b");
    expect(taken!.observed).toBe(3);
    waiting.stop();
    await waiting.done;
  }, 60_000);

  it("a holder whose lease was taken over stops before it learns from another outcome, and waits again", async () => {
    const lines: string[] = [];
    const holder = start("learner-a", config, undefined, (line) => lines.push(line));
    await report(null, true);
    await until(stored, (s) => s !== null && s.cursor >= served);
    // As if learner-a stalled past its TTL: another learner takes the lease.
    const later = new Date(Date.now() + 60_000);
    await store.acquireLearnerLease("math", {
      holder: "learner-b",
      host: "test",
      pid: 2,
      ttlMs: 600_000,
      now: later,
    });
    const cursor = (await stored())!.cursor;
    await report(null, false);
    await until(
      async () => lines.join("\n"),
      (text) => /the lease went to another learner; waiting again/.test(text),
    );
    // It learned nothing more and wrote no state.
    expect((await stored())!.cursor).toBe(cursor);
    expect(lines.join("\n")).toMatch(/waiting for the lease held by learner-b/);
    holder.stop();
    await holder.done;
  }, 60_000);
});
