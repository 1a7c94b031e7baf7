// A team's agent on a stateful system: each attempt of `learn --agent` / `eval --agent` gets its own environment
// (the tickets example's MCP server over Streamable HTTP, one session per attempt, a real process), in its own
// framework's terms: a LangChain `createAgent` built per attempt with the attempt's tools (or through
// @langchain/mcp-adapters on the attempt's endpoint), an AI SDK `ToolLoopAgent` (tfgrpo's tool wrappers, or
// @ai-sdk/mcp on the endpoint), a plain function. The SIMULATED model server drives the agents over HTTP.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { createMCPClient } from "@ai-sdk/mcp";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { experienceMiddleware as aiSdkMiddleware, environmentTools } from "@tfgrpo/ai-sdk";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import {
  type AgentEnvironment,
  isInfrastructureFailure,
  type RolloutRequest,
  type Task,
  type Trajectory,
} from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { createToolResources, openToolset } from "@tfgrpo/tools";
import { stepCountIs, ToolLoopAgent, wrapLanguageModel } from "ai";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDomainToolsets, type DomainToolsets } from "../roles/domain-toolsets.js";
import { repositoryRoot } from "../testing/spawn-cli.js";
import { createAgentActor } from "./create-agent-actor.js";
import type { AgentFunction, AgentFunctionInput } from "./function-agent-run.js";
import { type AgentModule, loadAgentModule } from "./load-agent-module.js";

const ticketsServer = path.join(repositoryRoot, "examples/tickets/tickets-server.mjs");
type TicketsReward = (task: Task, answer: string | null, trajectory: Trajectory) => { reward: number };
let ticketsReward: TicketsReward;
let sim: SimServer;
let server: ChildProcess;
let serverUrl = "";
let temporary: TemporaryDirectory;
const opened: DomainToolsets[] = [];

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-agent-environment-");
  ticketsReward = (await import(path.join(repositoryRoot, "examples/tickets/tickets-reward.mjs")))
    .default as TicketsReward;
  sim = await createSimServer({ seed: 7 });
  server = spawn(process.execPath, [ticketsServer, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = await Promise.race([
    (async () => {
      for await (const first of createInterface({ input: server.stdout! })) return [first];
      return [""];
    })(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("the tickets server did not start in 10 s")), 10_000),
    ),
  ]);
  serverUrl = (JSON.parse(line!) as { url: string }).url;
});

afterAll(async () => {
  for (const toolsets of opened) await toolsets.close();
  server?.kill();
  await sim?.close();
  await temporary?.[Symbol.asyncDispose]();
});

const actorSettings = { domains: { tickets: { tools: ["mcp:tickets"], systemPrompt: "Helpdesk." } } };

/** The agent actor as `learn --agent` builds it, over the tickets server: one session per attempt, or one shared. */
async function agentActor(module: AgentModule, environment: "session" | "shared" = "session") {
  const toolsets = await createDomainToolsets({
    tools: { servers: { tickets: { url: serverUrl, environment } } },
    actor: actorSettings,
  });
  opened.push(toolsets);
  return createAgentActor({ module, tools: toolsets.factory, config: actorSettings });
}

const ticketTask = (ticket: string): Task => ({
  id: `close-${ticket}`,
  domain: "tickets",
  question: `Close ticket ${ticket}.`,
  meta: { expected: { [ticket]: { status: "closed" } } },
});
const request = (task: Task, attempt = 0): RolloutRequest => ({
  runId: "run-agent-env",
  groupId: `g-${task.id}`,
  task,
  attempt,
  library: null,
});
const closed = (index: number) => [
  { path: `/tickets/${index}/status`, op: "replace", before: "open", after: "closed" },
];
const simBaseUrl = () => `${sim.url}`;

/** A factory module: tfgrpo calls `agent(input)` for each attempt; what it returns runs the attempt. */
const factory = (agent: AgentFunction, file = "team-agent.mjs"): AgentModule => ({
  file,
  agent: { kind: "function", agent },
});

const chatModel = () =>
  new ChatOpenAI({
    model: "sim-actor",
    apiKey: "sim",
    maxRetries: 0,
    configuration: { baseURL: simBaseUrl() },
  });
const aiSdkModel = (middleware: ReturnType<typeof aiSdkMiddleware>) =>
  wrapLanguageModel({
    model: createOpenAICompatible({ name: "team", baseURL: simBaseUrl(), apiKey: "sim" }).chatModel(
      "sim-actor",
    ),
    middleware,
  });
const helpdesk = "You are an IT helpdesk agent. Do what the request asks in the ticket system, nothing more.";

/** The attempt closed T-3 through the tickets tool, and the tickets reward, reading the final state, gives 1. */
function expectClosedT3(trajectory: Trajectory, model: string) {
  expect(trajectory.error).toBeUndefined();
  expect(trajectory.stopReason).toBe("answered");
  expect(trajectory.model).toBe(model);
  expect(trajectory.toolCalls.map((call) => call.name)).toContain("update_ticket");
  expect(trajectory.environment?.diff).toEqual(closed(2));
  expect(ticketsReward(ticketTask("T-3"), trajectory.finalAnswer, trajectory).reward).toBe(1);
}

describe("the attempt's environment, handed to the team's agent", () => {
  it("a LangChain createAgent built per attempt with the attempt's tools, and one on @langchain/mcp-adapters", async () => {
    const seen: AgentFunctionInput[] = [];
    const withTools = await agentActor(
      factory((input) => {
        seen.push(input);
        return createAgent({
          model: chatModel(),
          tools: input.tools,
          systemPrompt: helpdesk,
          middleware: [experienceMiddleware({ domain: "tickets" })],
        });
      }),
    );
    expectClosedT3(await withTools.rollout(request(ticketTask("T-3"))), "agent:langchain");
    // The attempt's tools, never the environment's controls; the same tools on the attempt's endpoint.
    expect(seen[0]!.tools.map((tool) => tool.name).sort()).toEqual([
      "find_user",
      "list_tickets",
      "update_ticket",
    ]);
    expect(seen[0]!.environment!.tools.map((tool) => tool.name).sort()).toEqual(
      seen[0]!.tools.map((tool) => tool.name).sort(),
    );
    expect(seen[0]!.environment!.mcpServers).toEqual({
      tickets: { transport: "http", url: seen[0]!.environment!.url },
    });
    // The endpoint closed with the attempt.
    await expect(listTools(seen[0]!.environment!.url)).rejects.toThrow();

    const clients: MultiServerMCPClient[] = [];
    const overMcp = await agentActor(
      factory(async ({ environment }) => {
        const client = new MultiServerMCPClient({ mcpServers: environment!.mcpServers });
        clients.push(client);
        return createAgent({
          model: chatModel(),
          tools: await client.getTools(),
          systemPrompt: helpdesk,
          middleware: [experienceMiddleware({ domain: "tickets" })],
        });
      }),
    );
    expectClosedT3(await overMcp.rollout(request(ticketTask("T-3"))), "agent:langchain");
    for (const client of clients) await client.close();
  }, 60_000);

  it("an AI SDK ToolLoopAgent with tfgrpo's tool wrappers, and one on @ai-sdk/mcp's client", async () => {
    const build = (tools: Record<string, unknown>) => {
      const middleware = aiSdkMiddleware({ domain: "tickets" });
      return new ToolLoopAgent({
        model: aiSdkModel(middleware),
        instructions: helpdesk,
        tools: tools as never,
        stopWhen: stepCountIs(6),
      });
    };
    const wrapped = await agentActor(factory(({ environment }) => build(environmentTools(environment))));
    expectClosedT3(await wrapped.rollout(request(ticketTask("T-3"))), "agent:ai-sdk");

    const clients: Array<{ close(): Promise<void> }> = [];
    const overMcp = await agentActor(
      factory(async ({ environment }) => {
        const client = await createMCPClient({ transport: { type: "http", url: environment!.url } });
        clients.push(client);
        return build(await client.tools());
      }),
    );
    expectClosedT3(await overMcp.rollout(request(ticketTask("T-3"))), "agent:ai-sdk");
    for (const client of clients) await client.close().catch(() => {});
  }, 60_000);

  it("a plain function calling input.environment's tools, its state scored by the reward", async () => {
    const actor = await agentActor(
      factory(async ({ task, environment }) => {
        const id = /ticket (T-\d+)/.exec(task.question)![1]!;
        const update = environment!.tools.find((tool) => tool.name === "update_ticket")!;
        const output = await update.call({ id, status: "closed" });
        return { text: `Closed ${id}.`, toolCalls: [{ name: "update_ticket", input: { id }, output }] };
      }),
    );
    const trajectory = await actor.rollout(request(ticketTask("T-3")));
    expectClosedT3(trajectory, "agent:function");
    expect(trajectory.environment?.finalState).toMatchObject({ tickets: expect.any(Array) });
  }, 30_000);

  it("four concurrent attempts each see and change only their own state (and a shared server would leak)", async () => {
    // Each attempt writes its ticket, then waits until all four have written before it reads the tickets and ends:
    // every read and every final state comes after every write, so any sharing shows.
    const run = async (environment: "session" | "shared") => {
      let written = 0;
      let release!: () => void;
      const allWritten = new Promise<void>((resolve) => {
        release = resolve;
      });
      const actor = await agentActor(
        factory(async ({ task, environment: attempt }) => {
          const id = /ticket (T-\d+)/.exec(task.question)![1]!;
          const call = (name: string, input: Record<string, unknown>) =>
            attempt!.tools.find((tool) => tool.name === name)!.call(input);
          await call("update_ticket", { id, status: "closed" });
          if (++written === 4) release();
          await allWritten;
          // Read over the attempt's MCP endpoint: the same state as its tools.
          const listed = await callOverMcp(attempt!, "list_tickets", { status: "closed" });
          return { text: "done", toolCalls: [{ name: "list_tickets", input: {}, output: listed }] };
        }),
        environment,
      );
      const tickets = ["T-1", "T-2", "T-3", "T-5"];
      const trajectories = await Promise.all(
        tickets.map((ticket, attempt) => actor.rollout(request(ticketTask(ticket), attempt))),
      );
      return trajectories.map((trajectory) => ({
        diff: trajectory.environment?.diff.length,
        closedSeen: (JSON.parse(trajectory.toolCalls[0]!.output) as Array<{ id: string }>).map((t) => t.id),
      }));
    };
    // T-4 starts closed; each attempt sees its own ticket closed, and nobody else's.
    expect(await run("session")).toEqual([
      { diff: 1, closedSeen: ["T-1", "T-4"] },
      { diff: 1, closedSeen: ["T-2", "T-4"] },
      { diff: 1, closedSeen: ["T-3", "T-4"] },
      { diff: 1, closedSeen: ["T-4", "T-5"] },
    ]);
    const shared = await run("shared");
    expect(shared.every(({ closedSeen }) => closedSeen.length === 5)).toBe(true);
  }, 60_000);

  it("an environment that does not start fails the attempt as infrastructure; the agent never runs", async () => {
    let called = false;
    // A server that is not there (the toolset check at start-up would refuse it: the factory is used directly).
    const resources = createToolResources({
      servers: { tickets: { url: "http://127.0.0.1:9/mcp", environment: "session", startTimeoutMs: 2000 } },
    });
    const actor = createAgentActor({
      module: factory(() => {
        called = true;
        return "nothing";
      }),
      tools: (domain, names, context) => openToolset({ domain, resources, tools: names, task: context.task }),
      config: actorSettings,
    });
    try {
      const trajectory = await actor.rollout(request(ticketTask("T-3")));
      expect(called).toBe(false);
      expect(trajectory.stopReason).toBe("environment_error");
      expect(trajectory.error).toMatch(/^domain tickets: MCP server "tickets" .*did not answer initialize/);
      expect(isInfrastructureFailure(trajectory)).toBe(true);
      expect(trajectory.environment).toBeUndefined();
    } finally {
      await resources.close();
    }
  }, 30_000);

  it("a factory that returns no agent, or throws, fails the attempt naming the module", async () => {
    const bad = await agentActor(factory(() => ({ invoke: 1 }), "bad-factory.mjs"));
    const trajectory = await bad.rollout(request(ticketTask("T-3")));
    expect(trajectory.stopReason).toBe("error");
    expect(trajectory.error).toMatch(
      /^bad-factory\.mjs: the agent function returned .* not a string, \{ text, answer, messages, toolCalls \} or an agent/,
    );
    const throwing = await agentActor(
      factory(() => {
        throw new Error("no model key");
      }, "throwing-factory.mjs"),
    );
    expect((await throwing.rollout(request(ticketTask("T-3")))).error).toBe(
      "throwing-factory.mjs: the agent function failed: no model key",
    );
    // A module file whose factory is not a function at all is refused when it loads, naming the file.
    const file = path.join(temporary.path, "factory-object.mjs");
    await writeFile(file, "export const agent = { tools: [] };\n");
    await expect(loadAgentModule(file)).rejects.toThrow(
      `agent module ${file} exports no agent of a known shape`,
    );
  }, 30_000);
});

async function listTools(url: string): Promise<string[]> {
  const client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

async function callOverMcp(environment: AgentEnvironment, name: string, input: Record<string, unknown>) {
  const client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(environment.url)));
  try {
    const result = (await client.callTool({ name, arguments: input })) as {
      content: Array<{ text: string }>;
    };
    return result.content[0]!.text;
  } finally {
    await client.close();
  }
}
