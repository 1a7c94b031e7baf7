// `tfgrpo serve --role actor` with a team's own MCP server (the tickets example of docs/tools.md) from
// TFGRPO_ACTOR_CONFIG: the worker spawns the server per attempt; a bad tool config stops it before any rollout.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { actorRollout, type Trajectory } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { expect, it } from "vitest";
import { startRoleWorker } from "../testing/start-role-worker.js";

const env = (simPort: number, actorConfig: string) => ({
  SIM_PORT: String(simPort),
  TFGRPO_SIM_CORPUS_URL: "",
  TFGRPO_ACTOR_CONFIG: actorConfig,
  TFGRPO_NATS_URL: "",
});

it("serve --role actor runs the tickets example's rollouts, each on its own server", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 7 });
  await using _worker = await startRoleWorker(
    "actor",
    ["--nats", nats.url, "--config", "examples/models.sim.yaml", "--concurrency", "4"],
    { env: env(sim.port, "examples/tickets/actor.yaml") },
  );
  const runner = await createNatsBus({ servers: nats.url, name: "actor-mcp-test" });
  try {
    const task = { id: "close-t3", domain: "tickets", question: "Close ticket T-3." };
    const trajectories = (await Promise.all(
      [0, 1, 2, 3].map((attempt) =>
        runner.request(
          actorRollout,
          { runId: "r", task, groupId: "g", attempt, library: null },
          { timeoutMs: 90_000 },
        ),
      ),
    )) as Trajectory[];
    for (const trajectory of trajectories) {
      expect(trajectory.stopReason).toBe("answered");
      expect(trajectory.environment?.diff).toEqual([
        { path: "/tickets/2/status", op: "replace", before: "open", after: "closed" },
      ]);
    }
  } finally {
    await runner.close();
  }
}, 180_000);

it("serve --role actor stops before any rollout on a server command that does not exist, in one line", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 7 });
  await using directory = await temporaryDirectory();
  const settings = path.join(directory.path, "actor.yaml");
  await writeFile(
    settings,
    [
      "actor:",
      "  domains:",
      "    tickets: { tools: ['mcp:tickets'], systemPrompt: 'You help.' }",
      "tools:",
      "  servers:",
      "    tickets: { command: no-such-ticket-server, environment: process }",
    ].join("\n"),
  );
  const failed = await startRoleWorker(
    "actor",
    ["--nats", nats.url, "--config", "examples/models.sim.yaml"],
    {
      env: env(sim.port, settings),
    },
  ).then(
    async (worker) => {
      await worker[Symbol.asyncDispose]();
      return null;
    },
    (error: Error) => error.message,
  );
  expect(failed).toMatch(
    /domain tickets: MCP server "tickets" \(no-such-ticket-server\): did not answer initialize: .*ENOENT/,
  );
}, 120_000);
