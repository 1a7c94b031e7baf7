// Acceptance: a cassette recorded from a sim `learn` step replays offline (the sim server is gone) to the identical
// library version and usage totals; a replay that asks something else stops with the role and the step named.
import { readFileSync } from "node:fs";
import path from "node:path";
import { cassetteFileName } from "@tfgrpo/models";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { learn } from "../commands/learn.js";
import type { LearnCommandOptions } from "../commands/learn-command-options.js";
import { captureCommandOutput } from "../testing/capture-command-output.js";
import { libraryHistory } from "../testing/library-history.js";
import { meansOnlyGate } from "../testing/means-only-gate.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";

const domain = "math";
let temporary: TemporaryDirectory | undefined;
let directory: string;
let train: string;
let val: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-cassette-");
  directory = temporary.path;
  ({ train, val } = await writeSimSuites(directory, { domain, seed: 5, sizes: { train: 4, val: 4 } }));
  // Four validation tasks: the step must commit for the replay to have a library to match (see meansOnlyGate).
  Object.assign(process.env, await meansOnlyGate(directory));
});
afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

function options(db: string, extra: Partial<LearnCommandOptions>): LearnCommandOptions {
  return {
    domain,
    train,
    val,
    epochs: 1,
    groupSize: 3,
    concurrency: 4,
    groundTruth: true,
    seed: 5,
    db,
    valK: 1,
    precheck: 0,
    mode: "tools",
    baseline: false,
    localRoles: "actor,critic,curator",
    trace: false,
    temperature: 0.7,
    evalTemperature: 0.3,
    ...extra,
  };
}

async function summary(db: string, runId: string) {
  const store = await createStore(db);
  try {
    const usage = await store.getUsageTotals(runId);
    const { latencyMs: _latency, ...total } = usage.total;
    return {
      library: await libraryHistory(store, domain),
      usage: total,
      run: (await store.getRun(runId))?.status,
    };
  } finally {
    await store.close();
  }
}

describe("learn --record / --replay", () => {
  it("replays a recorded sim learning step offline to the identical library version and usage totals", async () => {
    const cassette = path.join(directory, "cassette");
    const recordedDb = path.join(directory, "recorded", "tfgrpo.db");
    const recording = captureCommandOutput();
    const recorded = await learn(
      options(recordedDb, { sim: true, record: cassette, runId: "cassette-run" }),
      recording.output,
    );
    expect(recorded.headVersion).not.toBeNull();
    const manifest = JSON.parse(readFileSync(path.join(cassette, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ command: "learn", runId: "cassette-run" });
    const exchanges = readFileSync(path.join(cassette, cassetteFileName), "utf8").trim().split("\n");
    expect(exchanges.length).toBeGreaterThan(10);
    const roles = new Set(exchanges.map((line) => JSON.parse(line).role));
    expect([...roles].sort()).toEqual(expect.arrayContaining(["actor", "critic", "curator"]));

    // The sim server stopped with the recording run; the replay has no model endpoint at all.
    // Nor the recording's environment: the cassette's copy of the models config pins the port it used.
    delete process.env.SIM_PORT;
    const replayedDb = path.join(directory, "replayed", "tfgrpo.db");
    const replaying = captureCommandOutput();
    const replayed = await learn(options(replayedDb, { replay: cassette }), replaying.output);
    expect(replaying.written.stderr).toContain(`replaying model traffic from ${cassette}`);
    expect(replayed.runId).toBe("cassette-run");
    const [live, again] = [
      await summary(recordedDb, "cassette-run"),
      await summary(replayedDb, "cassette-run"),
    ];
    expect(again.library).toEqual(live.library);
    // Costs are summed as records arrive (the store's running totals), in whatever order concurrent calls finish:
    // equal up to floating-point rounding.
    expect(again.usage).toEqual({ ...live.usage, costUsd: expect.closeTo(live.usage.costUsd, 12) });
    expect(again.usage.calls).toBeGreaterThan(0);
    expect(again.run).toBe(live.run);
  }, 240_000);

  it("stops a replay that asks what the recording does not hold, naming the role and the step", async () => {
    const cassette = path.join(directory, "cassette");
    const db = path.join(directory, "other", "tfgrpo.db");
    const replaying = captureCommandOutput();
    // Another sampling temperature: every rollout request differs from the recorded ones.
    const failure = await learn(options(db, { replay: cassette, temperature: 0.9 }), replaying.output).then(
      (outcome) => outcome,
      (error: unknown) => error,
    );
    const text = `${replaying.written.stderr}\n${replaying.written.stdout}\n${failure instanceof Error ? failure.message : JSON.stringify((failure as { stoppedBy?: string }).stoppedBy ?? "")}`;
    expect(text).toMatch(/has no answer for a request of role actor during step 1 rollouts/);
  }, 120_000);
});
