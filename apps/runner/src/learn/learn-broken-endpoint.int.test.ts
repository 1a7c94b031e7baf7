import { writeFile } from "node:fs/promises";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repositoryRoot, spawnCli } from "../testing/spawn-cli.js";

const domain = "math";
let temporary: TemporaryDirectory | undefined;
let directory: string;
let train: string;
let val: string;
let brokenConfig: string;

// The sim world's models, but the actor's endpoint is a closed port: every rollout fails with a model error.
const brokenModels = `providers:
  sim:
    baseUrl: http://127.0.0.1:\${SIM_PORT}/v1
    structuredOutput: json_schema
  down:
    baseUrl: http://127.0.0.1:2/v1
models:
  down-actor:
    provider: down
    model: sim-actor
    timeoutMs: 5000
    maxRetries: 0
  sim-critic:
    provider: sim
    model: sim-critic
    timeoutMs: 30000
    maxRetries: 0
roles:
  actor: down-actor
  critic: sim-critic
  curator: sim-critic
  judge: sim-critic
  embedder:
    provider: sim
    model: sim-embedder
`;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-broken-endpoint-");
  directory = temporary.path;
  train = path.join(directory, "train.jsonl");
  val = path.join(directory, "val.jsonl");
  brokenConfig = path.join(directory, "models.broken.yaml");
  await writeSuiteJsonl(train, createSuite({ domain, seed: 3, size: 3, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain, seed: 3, size: 3, split: "val" }));
  await writeFile(brokenConfig, brokenModels);
});
afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

describe("tfgrpo learn with an unreachable actor endpoint", () => {
  it("exits non-zero as interrupted, commits nothing, and resumes once the endpoint is back", async () => {
    const runId = "broken-endpoint";
    const db = path.join(directory, "tfgrpo.db");
    const broken = spawnCli([
      "learn",
      "--sim",
      "--config",
      brokenConfig,
      "--domain",
      domain,
      "--train",
      train,
      "--val",
      val,
      "--epochs",
      "1",
      "--group-size",
      "2",
      "--concurrency",
      "4",
      "--db",
      db,
      "--run-id",
      runId,
    ]);
    expect(await broken.exited, broken.output.stderr).not.toBe(0);
    expect(broken.output.stderr).toMatch(
      /the actor.s model endpoint \(sim-actor\) failed 6 of 6 rollouts of step 1 \(last: .*ECONNREFUSED.*\): stopping; resume with tfgrpo learn --resume broken-endpoint once it is back/,
    );
    let store = await createStore(db, { mustExist: true });
    try {
      expect(await store.getRun(runId)).toMatchObject({
        status: "interrupted",
        summary: { code: "model_error" },
      });
      expect(await store.listVersions(domain)).toEqual([]);
      const rollouts = await store.listTrajectories({ runId });
      expect(rollouts).toHaveLength(6);
      expect(rollouts.every((t) => t.stopReason === "model_error" && t.reward === undefined)).toBe(true);
    } finally {
      await store.close();
    }

    // The endpoint is back (the sim world's own config): the run continues and finishes.
    const resumed = spawnCli([
      "learn",
      "--sim",
      "--resume",
      runId,
      "--db",
      db,
      "--config",
      path.join(repositoryRoot, "examples/models.sim.yaml"),
    ]);
    expect(await resumed.exited, resumed.output.stderr).toBe(0);
    store = await createStore(db, { mustExist: true });
    try {
      expect(await store.getRun(runId)).toMatchObject({ status: "finished" });
      const rollouts = (await store.listTrajectories({ runId })).filter((t) => t.step !== undefined);
      expect(rollouts).toHaveLength(6);
      expect(rollouts.every((t) => t.stopReason !== "model_error" && t.reward !== undefined)).toBe(true);
    } finally {
      await store.close();
    }
  }, 300_000);
});
