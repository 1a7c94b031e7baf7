// The actor as a service in another process over a real nats-server: rollouts sent from this process as durable
// jobs and as request/reply calls come back as trajectories.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { startScriptedOpenAIServer } from "@tfgrpo/models/testing";
import { actorRollout, type JobResult, type RolloutRequest, type Trajectory } from "@tfgrpo/protocol";
import { createSimServer } from "@tfgrpo/sim";
import { describe, expect, it } from "vitest";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const workerScript = path.join(packageDir, "src/testing/actor-worker-process.ts");

function startWorker(args: string[]): Promise<ChildProcess & AsyncDisposable> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", workerScript, ...args], {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`actor worker exited with ${code} before ready:\n${stderr}`));
    child.once("exit", onExit);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) {
        child.off("exit", onExit);
        resolve(
          Object.assign(child, {
            [Symbol.asyncDispose]: async () => {
              if (child.exitCode !== null || child.signalCode !== null) return;
              const exited = new Promise((done) => child.once("exit", done));
              child.kill("SIGTERM");
              await exited;
            },
          }),
        );
      }
    });
  });
}

const rollout = (taskId: string, question: string, attempt: number): RolloutRequest => ({
  runId: "run-nats",
  task: { id: taskId, domain: "math", question },
  groupId: `group-${taskId}`,
  attempt,
  library: null,
  mode: "direct",
});

describe("actor service over NATS", () => {
  it("completes rollouts sent by another process, as jobs and as requests", async () => {
    await using nats = await startNatsServer();
    await using model = await startScriptedOpenAIServer({
      // The "model" answers each question's sum, so every trajectory can be checked against its own task.
      handler: (request) => {
        const question = String(request.body?.messages?.[1]?.content ?? "");
        const [a, b] = (question.match(/\d+/g) ?? ["0", "0"]).map(Number);
        return { kind: "chat", content: `Adding gives \\boxed{${(a ?? 0) + (b ?? 0)}}` };
      },
    });
    await using worker = await startWorker([nats.url, model.url, "ACTORTEST", "3"]);
    const bus = await createNatsBus({
      servers: nats.url,
      streamPrefix: "ACTORTEST",
      name: "test-orchestrator",
    });
    try {
      const jobs = Array.from({ length: 6 }, (_, index) => ({
        id: `t${index}#0`,
        input: rollout(`t${index}`, `What is ${index} + ${index * 10}?`, 0),
      }));
      const results = new Map<string, JobResult<Trajectory>>();
      let allDone: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        allDone = resolve;
      });
      const consumer = await bus.consumeResults(actorRollout, "run-nats", async (result) => {
        results.set(result.jobId, result);
        if (results.size === jobs.length) allDone();
      });
      await bus.enqueue(actorRollout, jobs, { replyTo: "run-nats" });
      await done;
      await consumer.close();

      for (const [index, job] of jobs.entries()) {
        const result = results.get(job.id)!;
        expect(result.ok).toBe(true);
        if (!result.ok) continue;
        expect(result.output).toMatchObject({
          taskId: `t${index}`,
          runId: "run-nats",
          stopReason: "answered",
          finalAnswer: String(index + index * 10),
          model: "worker-model",
        });
        expect(result.output.id).toMatch(new RegExp(`^worker-${worker.pid}-`));
      }

      const direct = await bus.request(actorRollout, rollout("t-direct", "What is 20 + 22?", 1), {
        timeoutMs: 30_000,
      });
      expect(direct).toMatchObject({
        taskId: "t-direct",
        attempt: 1,
        finalAnswer: "42",
        stopReason: "answered",
      });
    } finally {
      await bus.close();
    }
  });

  it("runs the tickets example's MCP server per attempt on a worker in another process (SIMULATED policy)", async () => {
    await using nats = await startNatsServer();
    const sim = await createSimServer({ seed: 7 });
    const server = path.resolve(packageDir, "../../examples/tickets/tickets-server.mjs");
    const settings = {
      tools: {
        domains: { tickets: ["mcp:tickets"] },
        servers: { tickets: { command: process.execPath, args: [server], environment: "process" } },
      },
      actor: {
        domains: { tickets: { tools: ["mcp:tickets"], systemPrompt: "You are an IT helpdesk agent." } },
      },
    };
    try {
      await using _worker = await startWorker([nats.url, sim.url, "ACTORMCP", "4", JSON.stringify(settings)]);
      const bus = await createNatsBus({
        servers: nats.url,
        streamPrefix: "ACTORMCP",
        name: "test-orchestrator-mcp",
      });
      try {
        const task = { id: "close-t3", domain: "tickets", question: "Close ticket T-3." };
        const trajectories = await Promise.all(
          [0, 1, 2, 3].map((attempt) =>
            bus.request(
              actorRollout,
              { runId: "run-mcp", task, groupId: "g", attempt, library: null },
              { timeoutMs: 60_000 },
            ),
          ),
        );
        for (const trajectory of trajectories) {
          expect(trajectory.stopReason).toBe("answered");
          expect(trajectory.environment?.diff).toEqual([
            { path: "/tickets/2/status", op: "replace", before: "open", after: "closed" },
          ]);
        }
      } finally {
        await bus.close();
      }
    } finally {
      await sim.close();
    }
  });
});
