import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkToolset, openToolset } from "./open-toolset.js";
import { createToolResources } from "./tool-resources.js";
import type { ToolsConfig } from "./tools-config.js";

const server = fileURLToPath(new URL("../../../../examples/tickets/tickets-server.mjs", import.meta.url));
const task = { id: "t1", domain: "tickets", question: "Close ticket T-3." };

function stdioConfig(extra: Record<string, unknown> = {}): ToolsConfig {
  return {
    domains: { tickets: ["mcp:tickets"] },
    servers: { tickets: { command: process.execPath, args: [server], environment: "process", ...extra } },
  };
}

async function call(toolset: { tools: readonly unknown[] }, name: string, args: unknown): Promise<string> {
  const tool = toolset.tools.find((candidate) => (candidate as { name: string }).name === name) as {
    invoke(input: unknown): Promise<string>;
  };
  return tool.invoke(args);
}

describe("openToolset with an MCP server spawned per attempt", () => {
  it("lists the server's tools without its environment_ controls, resets, and diffs the state", async () => {
    const resources = createToolResources(stdioConfig());
    try {
      const toolset = await openToolset({ domain: "tickets", resources, task });
      expect(toolset.tools.map((tool) => tool.name).sort()).toEqual([
        "find_user",
        "list_tickets",
        "update_ticket",
      ]);
      expect(await call(toolset, "update_ticket", { id: "T-3", status: "closed" })).toContain(
        '"status":"closed"',
      );
      // A refused argument and an invalid input are text for the model, not exceptions.
      expect(await call(toolset, "update_ticket", { id: "T-3", assignee: "Bob Diaz" })).toMatch(
        /^Error: unknown user id/,
      );
      expect(await call(toolset, "update_ticket", { id: 3 })).toMatch(
        /^Error: invalid input for update_ticket: \/id/,
      );
      const final = (await toolset.environment!.state()) as { tickets: { id: string; status: string }[] };
      expect(final.tickets.find((ticket) => ticket.id === "T-3")!.status).toBe("closed");
      expect((toolset.environment!.initialState as typeof final).tickets[2]!.status).toBe("open");
      await toolset.close();
    } finally {
      await resources.close();
    }
  });

  it("gives each of four concurrent attempts its own state", async () => {
    const resources = createToolResources(stdioConfig());
    try {
      const toolsets = await Promise.all(
        [0, 1, 2, 3].map(() => openToolset({ domain: "tickets", resources, task })),
      );
      await Promise.all(
        toolsets.map((toolset, index) =>
          call(toolset, "update_ticket", { id: `T-${index + 1}`, priority: "high" }),
        ),
      );
      const states = (await Promise.all(toolsets.map((toolset) => toolset.environment!.state()))) as {
        tickets: { priority: string }[];
      }[];
      states.forEach((state, index) => {
        expect(state.tickets.filter((ticket) => ticket.priority === "high").length).toBe(
          index === 1 ? 1 : 2, // T-2 starts high: attempt 1 raised it again, the others raised one more
        );
      });
      await Promise.all(toolsets.map((toolset) => toolset.close()));
    } finally {
      await resources.close();
    }
  });

  it("fails a call on a killed server as environment_unavailable, naming domain and server", async () => {
    const resources = createToolResources(stdioConfig());
    try {
      const toolset = await openToolset({ domain: "tickets", resources, task });
      const other = await openToolset({ domain: "tickets", resources, task });
      const pid = (await import("node:child_process"))
        .execFileSync("pgrep", ["-f", "-n", server])
        .toString()
        .trim();
      process.kill(Number(pid), "SIGKILL");
      const tool = toolset.tools.find((candidate) => candidate.name === "list_tickets")!;
      const otherTool = other.tools.find((candidate) => candidate.name === "list_tickets")!;
      const outcomes = await Promise.allSettled([tool.invoke({}), otherTool.invoke({})]);
      const failed = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(failed).toHaveLength(1);
      expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: "environment_unavailable" });
      expect(String((failed[0] as PromiseRejectedResult).reason.message)).toMatch(
        /^domain tickets: MCP server "tickets"/,
      );
      await Promise.all([toolset.close(), other.close()]);
    } finally {
      await resources.close();
    }
  });
});

describe("openToolset over Streamable HTTP with a session per attempt", () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [server, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once("line", resolve),
    );
    url = JSON.parse(line).url;
  });
  afterAll(() => {
    child.kill();
  });

  it("opens one session per attempt: writes of one never show in another", async () => {
    const resources = createToolResources({
      domains: { tickets: ["mcp:tickets"] },
      servers: { tickets: { url, environment: "session" } },
    });
    try {
      const [a, b] = await Promise.all([0, 1].map(() => openToolset({ domain: "tickets", resources, task })));
      await call(a!, "update_ticket", { id: "T-3", status: "closed" });
      const stateB = (await b!.environment!.state()) as { tickets: { status: string }[] };
      expect(stateB.tickets[2]!.status).toBe("open");
      const stateA = (await a!.environment!.state()) as { tickets: { status: string }[] };
      expect(stateA.tickets[2]!.status).toBe("closed");
      await Promise.all([a!.close(), b!.close()]);
    } finally {
      await resources.close();
    }
  });
});

describe("a bad tool config fails before any rollout with one line", () => {
  it("names the domain and server for an unknown command", async () => {
    const resources = createToolResources({
      domains: { tickets: ["mcp:tickets"] },
      servers: { tickets: { command: "no-such-mcp-server-cmd", environment: "process" } },
    });
    await expect(checkToolset({ domain: "tickets", resources })).rejects.toThrow(
      /^domain tickets: MCP server "tickets" \(no-such-mcp-server-cmd\): did not answer initialize: .*ENOENT/,
    );
    await resources.close();
  });

  it("names the domain and server for a server that never answers initialize", async () => {
    const resources = createToolResources({
      domains: { tickets: ["mcp:tickets"] },
      servers: {
        tickets: {
          command: process.execPath,
          args: ["-e", "setInterval(() => {}, 1000)"],
          startTimeoutMs: 300,
        },
      },
    });
    const error = await checkToolset({ domain: "tickets", resources }).catch((thrown: Error) => thrown);
    expect((error as Error).message).toMatch(
      /^domain tickets: MCP server "tickets" .*: did not answer initialize/,
    );
    expect((error as Error).message).not.toContain("\n");
    await resources.close();
  });

  it("names the domain, server and tool for a schema a provider would refuse", async () => {
    {
      await using temporary = await temporaryDirectory();
      const directory = temporary.path;
      // A server whose one tool has a top-level anyOf, which providers refuse (the MCP SDK accepts it).
      const bad = path.join(directory, "bad-server.mjs");
      await writeFile(
        bad,
        `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method } = JSON.parse(line);
  if (id === undefined) return;
  const result = method === "initialize"
    ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "bad", version: "1" } }
    : { tools: [{ name: "lookup", inputSchema: { type: "object", anyOf: [{ required: ["a"] }, { required: ["b"] }] } }] };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");
});`,
      );
      const resources = createToolResources({
        domains: { shop: ["mcp:catalog"] },
        servers: { catalog: { command: process.execPath, args: [bad] } },
      });
      await expect(checkToolset({ domain: "shop", resources })).rejects.toThrow(
        'domain shop: MCP server "catalog": tool "lookup": the input schema has a top-level anyOf, which providers refuse',
      );
      await resources.close();
    }
  });

  it("names the entry that references no configured server", async () => {
    const resources = createToolResources({ domains: { tickets: ["mcp:nope"] } });
    await expect(checkToolset({ domain: "tickets", resources })).rejects.toThrow(
      "domain tickets: tool entry mcp:nope names nothing in tools.servers (configured: none)",
    );
  });
});

describe("tool modules and hung servers", () => {
  it("opens a module's LangChain tools per attempt, and refuses one a provider would refuse", async () => {
    await using temporary = await temporaryDirectory();
    const core = import.meta.resolve("@langchain/core/tools");
    const zod = import.meta.resolve("zod");
    const good = path.join(temporary.path, "good-tools.mjs");
    await writeFile(
      good,
      `import { tool } from ${JSON.stringify(core)};
import { z } from ${JSON.stringify(zod)};
export default ({ task }) => [
  tool(async ({ word }) => word.toUpperCase() + " for " + (task?.id ?? "no task"), {
    name: "shout", description: "Upper-cases a word", schema: z.object({ word: z.string() }),
  }),
];`,
    );
    const bad = path.join(temporary.path, "bad-tools.mjs");
    await writeFile(
      bad,
      `import { tool } from ${JSON.stringify(core)};
import { z } from ${JSON.stringify(zod)};
export const tools = [tool(async () => "x", { name: "has space", description: "d", schema: z.object({}) })];`,
    );
    const resources = createToolResources({
      domains: { words: ["module:good"], broken: ["module:bad"] },
      modules: { good: { path: good }, bad: { path: bad } },
    });
    try {
      const toolset = await openToolset({ domain: "words", resources, task });
      expect(await call(toolset, "shout", { word: "hi" })).toBe("HI for t1");
      expect(toolset.environment).toBeUndefined();
      await toolset.close();
      await expect(checkToolset({ domain: "broken", resources })).rejects.toThrow(
        /^domain broken: tool module "bad" \(.*bad-tools\.mjs\): tool "has space": the name must be/,
      );
    } finally {
      await resources.close();
    }
  });

  it("fails a call past the server's timeoutMs as environment_unavailable (a hung server)", async () => {
    await using temporary = await temporaryDirectory();
    const hung = path.join(temporary.path, "hung-server.mjs");
    await writeFile(
      hung,
      `import { createInterface } from "node:readline";
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method } = JSON.parse(line);
  if (id === undefined || method === "tools/call") return; // never answers a call
  const result = method === "initialize"
    ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "hung", version: "1" } }
    : { tools: [{ name: "wait", inputSchema: { type: "object" } }] };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");
});`,
    );
    const resources = createToolResources({
      domains: { slow: ["mcp:hung"] },
      servers: { hung: { command: process.execPath, args: [hung], environment: "process", timeoutMs: 300 } },
    });
    try {
      const toolset = await openToolset({ domain: "slow", resources, task });
      const tool = toolset.tools.find((candidate) => candidate.name === "wait")!;
      await expect(tool.invoke({})).rejects.toMatchObject({ code: "environment_unavailable" });
      await toolset.close();
    } finally {
      await resources.close();
    }
  });
});
