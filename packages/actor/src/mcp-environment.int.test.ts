// Attempts that act on a stateful system: the tickets example MCP server (examples/tickets), spawned per attempt,
// driven by the SIMULATED policy through the real actor, the real MCP client and the sim's OpenAI-compatible server.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { isInfrastructureFailure, type RolloutRequest, type Task, type Trajectory } from "@tfgrpo/protocol";
import { makeExperience, type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { createToolResources, openToolset, type ToolsConfig } from "@tfgrpo/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActorModels, createActor } from "./create-actor.js";
import { createScriptedModels, finalMessage, toolCallMessage } from "./testing/scripted-chat-model.js";

const examples = fileURLToPath(new URL("../../../examples/tickets/", import.meta.url));
const server = path.join(examples, "tickets-server.mjs");
type Reward = (
  task: Task,
  answer: string | null,
  trajectory: Trajectory,
) => { reward: number; reason: string };
let reward: Reward;
let sim: SimServer;
let models: ActorModels;
let directory: TemporaryDirectory;

const domains = {
  tickets: {
    tools: ["mcp:tickets"],
    systemPrompt:
      "You are an IT helpdesk agent. Do what the request asks in the ticket system, nothing more.",
  },
};

beforeAll(async () => {
  reward = (await import(path.join(examples, "tickets-reward.mjs"))).default as Reward;
  sim = await createSimServer({ seed: 7 });
  models = createModels(parseModelsConfig({ roles: { actor: { baseUrl: sim.url, model: "sim-actor" } } }));
  directory = await temporaryDirectory("tfgrpo-mcp-env-");
});

afterAll(async () => {
  await sim?.close();
  await directory?.[Symbol.asyncDispose]();
});

function actorFor(tools: ToolsConfig, library?: Parameters<typeof createActor>[0]["library"]) {
  const resources = createToolResources(tools);
  const actor = createActor({
    models,
    tools: (domain, names, context) => openToolset({ domain, resources, tools: names, task: context.task }),
    config: { domains },
    ...(library ? { library } : {}),
  });
  return { actor, close: () => resources.close() };
}

const request = (task: Task, attempt: number, extra: Partial<RolloutRequest> = {}): RolloutRequest => ({
  runId: "run-mcp",
  groupId: `g-${task.id}`,
  task,
  attempt,
  library: null,
  ...extra,
});

const closeT3: Task = {
  id: "close-t3",
  domain: "tickets",
  question: "Close ticket T-3.",
  meta: { expected: { "T-3": { status: "closed" } } },
};
const closedT3 = [{ path: "/tickets/2/status", op: "replace", before: "open", after: "closed" }];

describe("one environment per attempt (SIMULATED policy, real MCP server per attempt)", () => {
  it("four concurrent attempts of one group each change only their own state", async () => {
    const { actor, close } = actorFor({
      servers: { tickets: { command: process.execPath, args: [server], environment: "process" } },
    });
    try {
      const trajectories = await Promise.all(
        [0, 1, 2, 3].map((attempt) => actor.rollout(request(closeT3, attempt))),
      );
      for (const trajectory of trajectories) {
        expect(trajectory.stopReason).toBe("answered");
        expect(trajectory.toolCalls.map((call) => call.name)).toEqual(["update_ticket"]);
        expect(trajectory.toolCalls[0]!.output).toContain('"status":"closed"');
        expect(trajectory.environment?.diff).toEqual(closedT3);
        expect(reward(closeT3, trajectory.finalAnswer, trajectory).reward).toBe(1);
      }
    } finally {
      await close();
    }
  });

  it("fails when the attempts share one server: each attempt's state then shows the others' writes", async () => {
    // Scripted attempts that each write a different ticket, then wait until all four have written before they end:
    // every final state is read after every write, so any sharing shows in the diffs.
    const isolatedDiffs = async (environment: "process" | "shared") => {
      let arrived = 0;
      let release!: () => void;
      const allWritten = new Promise<void>((resolve) => {
        release = resolve;
      });
      let next = 0;
      const scripted: ActorModels = {
        chat: () => {
          const index = next++;
          return createScriptedModels(async (_messages, call) => {
            if (call === 0)
              return toolCallMessage([
                { name: "update_ticket", args: { id: `T-${index + 1}`, assignee: "u-carol" } },
              ]);
            if (++arrived === 4) release();
            await allWritten;
            return finalMessage("Done. \\boxed{done}");
          }).chat("actor", {});
        },
      };
      const resources = createToolResources({
        servers: { tickets: { command: process.execPath, args: [server], environment } },
      });
      const actor = createActor({
        models: scripted,
        tools: (domain, names, context) =>
          openToolset({ domain, resources, tools: names, task: context.task }),
        config: { domains },
      });
      try {
        const trajectories = await Promise.all(
          [0, 1, 2, 3].map((attempt) => actor.rollout(request(closeT3, attempt))),
        );
        return trajectories.map((trajectory) => trajectory.environment?.diff.length);
      } finally {
        await resources.close();
      }
    };
    expect(await isolatedDiffs("process")).toEqual([1, 1, 1, 1]);
    expect(await isolatedDiffs("shared")).toEqual([4, 4, 4, 4]);
  });

  it("a server killed mid-attempt fails only that attempt, as infrastructure", async () => {
    // A proxy in front of the real server: the first attempt to call update_ticket kills its server, once.
    const proxy = path.join(directory.path, "crash-once.mjs");
    const lock = path.join(directory.path, "crashed");
    await writeFile(
      proxy,
      `import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { createInterface } from "node:readline";
const child = spawn(process.execPath, [${JSON.stringify(server)}], { stdio: ["pipe", "inherit", "inherit"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.includes('"update_ticket"')) {
    try { openSync(${JSON.stringify(lock)}, "wx"); child.kill("SIGKILL"); process.exit(1); } catch {}
  }
  child.stdin.write(line + "\\n");
});`,
    );
    const { actor, close } = actorFor({
      servers: { tickets: { command: process.execPath, args: [proxy], environment: "process" } },
    });
    try {
      const trajectories = await Promise.all(
        [0, 1, 2, 3].map((attempt) => actor.rollout(request(closeT3, attempt))),
      );
      const broken = trajectories.filter((trajectory) => trajectory.stopReason === "environment_error");
      expect(broken).toHaveLength(1);
      expect(isInfrastructureFailure(broken[0]!)).toBe(true);
      expect(broken[0]!.error).toMatch(/^domain tickets: MCP server "tickets" .*calling update_ticket/);
      expect(broken[0]!.environment).toBeUndefined();
      for (const trajectory of trajectories.filter((t) => t !== broken[0])) {
        expect(trajectory.stopReason).toBe("answered");
        expect(isInfrastructureFailure(trajectory)).toBe(false);
        expect(trajectory.environment?.diff).toEqual(closedT3);
      }
    } finally {
      await close();
    }
  });

  it("a lesson about user ids makes the policy look users up before assigning (the reward reads the state)", async () => {
    const assign: Task = {
      id: "assign-t5",
      domain: "tickets",
      question: "Reassign ticket T-5 to Alice Chen.",
      meta: { expected: { "T-5": { assignee: "u-alice" } } },
    };
    const lesson = makeExperience({
      id: "G1",
      domain: "tickets",
      text: "Before assigning a ticket, look up the person's user id with find_user; never pass their name as the assignee.",
    });
    const { actor, close } = actorFor(
      { servers: { tickets: { command: process.execPath, args: [server], environment: "process" } } },
      async (domain, version) => ({ domain, version, experiences: [lesson] }),
    );
    try {
      const attempts = [0, 1, 2, 3, 4, 5];
      const score = async (library: RolloutRequest["library"]) => {
        const trajectories = await Promise.all(
          attempts.map((attempt) => actor.rollout(request(assign, attempt, { library }))),
        );
        return trajectories.map((trajectory) => reward(assign, trajectory.finalAnswer, trajectory).reward);
      };
      const without = await score(null);
      const withLesson = await score({ domain: "tickets", version: 1 });
      expect(withLesson.reduce((a, b) => a + b, 0)).toBeGreaterThan(without.reduce((a, b) => a + b, 0));
    } finally {
      await close();
    }
  });
});
