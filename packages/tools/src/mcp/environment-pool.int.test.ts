// The warm environment pool with real servers: the tickets example spawned per attempt (stdio) and served over
// Streamable HTTP with a session per attempt.
import { type ChildProcess, spawn } from "node:child_process";
import { getEventListeners } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openToolset } from "../langchain/open-toolset.js";
import { createToolResources } from "../langchain/tool-resources.js";
import { type McpServerConfig, type ToolsConfig, toolsConfigSchema } from "../langchain/tools-config.js";
import { createEnvironmentPool } from "./environment-pool.js";
import { connectMcpServer, type McpConnection } from "./mcp-connection.js";

const server = fileURLToPath(new URL("../../../../examples/tickets/tickets-server.mjs", import.meta.url));
const task = { id: "t1", domain: "tickets", question: "Close ticket T-3." };
const stdio = {
  command: process.execPath,
  args: [server],
  environment: "process",
} as const;
const stdioServer = toolsConfigSchema.parse({ servers: { tickets: stdio } }).servers!.tickets!;

function pooled(size: number, servers: ToolsConfig["servers"] = { tickets: stdio }): ToolsConfig {
  return {
    domains: { tickets: ["mcp:tickets"] },
    servers,
    environmentPool: { size, maxStarting: 2 },
  };
}

/** The pid of each toolset's server (one stdio connection each). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once no pid is alive; fails after `ms` (process exits are not events this test can subscribe to). */
async function gone(pids: number[], ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(alive)) {
    if (Date.now() > deadline)
      throw new Error(`still running after ${ms} ms: ${pids.filter(alive).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls `condition` until it holds; fails after `ms`. */
async function waitUntil(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function call(toolset: { tools: readonly unknown[] }, name: string, args: unknown): Promise<string> {
  const tool = toolset.tools.find((candidate) => (candidate as { name: string }).name === name) as {
    invoke(input: unknown): Promise<string>;
  };
  return tool.invoke(args);
}

/** A pool over the tickets server that keeps every connection it started. */
function recordingPool(size: number, config: McpServerConfig = stdioServer) {
  const started: McpConnection[] = [];
  const pool = createEnvironmentPool({
    size,
    maxStarting: 2,
    connect: async (signal) => {
      const connection = await connectMcpServer("tickets", config, {
        domain: "tickets",
        ...(signal ? { signal } : {}),
      });
      started.push(connection);
      return connection;
    },
  });
  const whenReady = (count: number) => waitUntil(() => pool.stats().ready >= count);
  return { pool, started, whenReady };
}

describe("a warm pool of environment processes", () => {
  it("hands distinct, never-used servers to concurrent attempts and refills", async () => {
    const { pool, started, whenReady } = recordingPool(3);
    try {
      await whenReady(3);
      const handed = await Promise.all([0, 1, 2, 3, 4].map(() => pool.acquire()));
      const pids = handed.map((connection) => connection.pid);
      expect(new Set(pids).size).toBe(5);
      expect(pool.stats().handedOut).toBe(5);
      expect(handed.every((connection) => !connection.closed)).toBe(true);
      // It refills with new servers: none of them is one an attempt holds.
      await whenReady(3);
      const waiting = started.filter((connection) => !handed.includes(connection) && !connection.closed);
      expect(waiting.length).toBe(3);
      for (const connection of waiting) expect(pids).not.toContain(connection.pid);
      await Promise.all(handed.map((connection) => connection.close()));
    } finally {
      await pool.close();
    }
    await gone(started.map((connection) => connection.pid!));
  });

  it("replaces a pooled server that crashes while it waits", async () => {
    const { pool, started, whenReady } = recordingPool(2);
    try {
      await whenReady(2);
      const victim = started[0]!;
      const closed = new Promise<void>((resolve) => victim.onClose(resolve));
      process.kill(victim.pid!, "SIGKILL");
      await closed;
      await whenReady(2);
      expect(pool.stats().died).toBe(1);
      const handed = await pool.acquire();
      expect(handed.pid).not.toBe(victim.pid);
      expect(handed.closed).toBe(false);
      await handed.close();
    } finally {
      await pool.close();
    }
    await gone(started.map((connection) => connection.pid!));
  });

  it("leaves no listener on a long-lived signal its start-ups share (no listener-leak warning)", async () => {
    const shared = new AbortController();
    const connection = await connectMcpServer("tickets", stdioServer, {
      domain: "tickets",
      signal: shared.signal,
    });
    try {
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    } finally {
      await connection.close();
    }
  });

  it("leaves no process behind on close, ready or still starting", async () => {
    const { pool, started, whenReady } = recordingPool(4);
    await whenReady(1);
    // Two more may still be starting: close() waits for them and stops them too.
    await pool.close();
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(started.every((connection) => connection.closed)).toBe(true);
    await gone(started.map((connection) => connection.pid!));
    await expect(pool.acquire()).rejects.toThrow(/pool is closed/);
  });
});

describe("attempts over a warm pool (openToolset)", () => {
  it("isolates attempts: each gets a server no attempt used, reset for its task", async () => {
    const resources = createToolResources(pooled(2));
    const pids: number[] = [];
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const toolset = await openToolset({ domain: "tickets", resources, task });
        const initial = toolset.environment!.initialState as { tickets: { id: string; status: string }[] };
        // The previous attempt closed T-3; this one starts from the fresh state all the same.
        expect(initial.tickets.find((ticket) => ticket.id === "T-3")!.status).toBe("open");
        await call(toolset, "update_ticket", { id: "T-3", status: "closed" });
        pids.push(...(await serverPids(toolset)));
        await toolset.close();
      }
      expect(new Set(pids).size).toBe(3);
      expect(resources.environments.stats("tickets")!.handedOut).toBe(3);
    } finally {
      await resources.close();
    }
    await gone(pids);
  });

  it("gives an attempt another server when its pooled one died before the reset", async () => {
    const resources = createToolResources(pooled(2));
    const killed: number[] = [];
    try {
      // Warm the pool, then kill every server in it (ready and any start-up that finished meanwhile).
      const first = await openToolset({ domain: "tickets", resources, task });
      killed.push(...(await serverPids(first)));
      await first.close();
      // The pool's waiting servers: the processes this test spawned, less the one used above.
      await waitUntil(() => resources.environments.stats("tickets")!.ready === 2);
      const waiting = await readyPids(killed);
      expect(waiting.length).toBeGreaterThanOrEqual(2);
      for (const pid of waiting) process.kill(pid, "SIGKILL");
      killed.push(...waiting);
      const toolset = await openToolset({ domain: "tickets", resources, task });
      const [pid] = await serverPids(toolset);
      expect(killed).not.toContain(pid);
      expect(await call(toolset, "list_tickets", {})).toContain("T-3");
      await toolset.close();
      killed.push(pid!);
    } finally {
      await resources.close();
    }
    await gone(killed);
  });

  it("with reuse: true, hands a process back after a clean attempt, reset for the next; never after a failed call", async () => {
    const resources = createToolResources(pooled(1, { tickets: { ...stdio, reuse: true } }));
    const pids: number[] = [];
    try {
      const first = await openToolset({ domain: "tickets", resources, task });
      await call(first, "update_ticket", { id: "T-3", status: "closed" });
      pids.push(...(await serverPids(first)));
      // The spare the pool started meanwhile is ready before the first attempt ends (CI once got it instead).
      await waitUntil(() => resources.environments.stats("tickets")!.ready === 1);
      await first.close();
      // The same process, reset: the previous attempt's write is gone; the spare stays spare.
      const second = await openToolset({ domain: "tickets", resources, task });
      expect(await serverPids(second)).toEqual([pids[0]]);
      const initial = second.environment!.initialState as { tickets: { id: string; status: string }[] };
      expect(initial.tickets.find((ticket) => ticket.id === "T-3")!.status).toBe("open");
      expect(resources.environments.stats("tickets")!.reused).toBe(1);
      // A call cut off by its attempt's end taints the process: closed, not reused.
      const aborted = new AbortController();
      aborted.abort(new Error("the attempt timed out"));
      const tool = second.tools.find((candidate) => candidate.name === "list_tickets")!;
      await expect(tool.invoke({}, { signal: aborted.signal })).rejects.toThrow();
      await second.close();
      const third = await openToolset({ domain: "tickets", resources, task });
      pids.push(...(await serverPids(third)));
      expect(pids[1]).not.toBe(pids[0]);
      await third.close();
    } finally {
      await resources.close();
    }
    await gone(pids);
  });

  describe("over Streamable HTTP, a session per attempt", () => {
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

    it("opens sessions ahead of the attempts, one per attempt", async () => {
      const resources = createToolResources(pooled(3, { tickets: { url, environment: "session" } }));
      try {
        const toolsets = await Promise.all(
          [0, 1, 2, 3].map(() => openToolset({ domain: "tickets", resources, task })),
        );
        await call(toolsets[0]!, "update_ticket", { id: "T-3", status: "closed" });
        const states = (await Promise.all(toolsets.map((toolset) => toolset.environment!.state()))) as {
          tickets: { id: string; status: string }[];
        }[];
        expect(states.map((state) => state.tickets.find((t) => t.id === "T-3")!.status)).toEqual([
          "closed",
          "open",
          "open",
          "open",
        ]);
        await Promise.all(toolsets.map((toolset) => toolset.close()));
        expect(resources.environments.stats("tickets")!.handedOut).toBe(4);
      } finally {
        await resources.close();
      }
    });
  });
});

/** The pids of a toolset's own servers (one stdio process per attempt). */
async function serverPids(toolset: { servers: readonly { pid: number | null }[] }): Promise<number[]> {
  return toolset.servers.map((server) => server.pid!);
}

/** Tickets servers this test process spawned and that are still running, from the process table (/proc). */
async function readyPids(exclude: readonly number[]): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (parent === process.pid && command.includes(server) && !exclude.includes(Number(entry)))
        pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
