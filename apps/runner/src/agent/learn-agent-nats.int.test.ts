// `learn --agent` over NATS: the team's agent runs on an actor worker in its own process, named by the worker's
// settings file (`agent:` in $TFGRPO_ACTOR_CONFIG, no models config: the agent brings its own model, the SIMULATED
// server here); the runner hosts the critic and curator. Every rollout is the agent's, the run commits a version.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repositoryRoot, spawnCli, waitForStderr } from "../testing/spawn-cli.js";

const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");
let temporary: TemporaryDirectory;
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-learn-agent-nats-");
});
afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

it("runs the team's agent on an actor worker named by its settings file", async () => {
  const directory = temporary.path;
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  await writeSuiteJsonl(train, createSuite({ domain: "math", seed: 7, size: 6, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed: 7, size: 4, split: "val" }));
  const settings = path.join(directory, "actor.yaml");
  await writeFile(settings, `agent: ${path.join(repositoryRoot, "examples/agents/langchain-agent.mjs")}\n`);
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 7 });
  const env = { SIM_PORT: String(sim.port), TFGRPO_NATS_URL: "" };
  const worker = spawnCli(["serve", "--role", "actor", "--nats", nats.url], {
    env: { ...env, TFGRPO_ACTOR_CONFIG: settings, TFGRPO_CONFIG: simConfig },
  });
  try {
    await waitForStderr(worker, /serving tfgrpo\.actor\.rollout/, "agent worker");
    expect(worker.output.stderr).toContain("actor: the team's agent from");
    const db = path.join(directory, "tfgrpo.db");
    const runner = spawnCli(
      ["learn", "--nats", nats.url, "--local-roles", "critic,curator", "--config", simConfig]
        .concat(["--domain", "math", "--train", train, "--val", val, "--epochs", "1", "--group-size", "4"])
        .concat(["--seed", "7", "--db", db, "--run-id", "agent-over-nats", "--no-trace"]),
      { env },
    );
    expect(await runner.exited, runner.output.stderr).toBe(0);
    const store = await createStore(db);
    try {
      const trajectories = await store.listTrajectories({ runId: "agent-over-nats" });
      expect(trajectories.length).toBeGreaterThan(0);
      expect(new Set(trajectories.map((t) => t.model))).toEqual(new Set(["agent:langchain"]));
    } finally {
      await store.close();
    }
  } finally {
    worker.child.kill("SIGTERM");
    await worker.exited;
  }
}, 300_000);
