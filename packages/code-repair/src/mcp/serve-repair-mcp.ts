import {
  hostMcpSessions,
  type McpSessionHost,
  type McpStdioHandle,
  serveMcpStdio,
} from "@tfgrpo/tools/internal";
import { createProgramCatalog } from "../program/program-catalog.js";
import { createRepairSandbox, type RepairSandboxOptions } from "../sandbox/repair-sandbox.js";
import { createRepairMcpServer } from "./create-repair-mcp-server.js";

export interface RepairMcpOptions {
  /** A QuixBugs directory (python_programs/, python_testcases/, json_testcases/). */
  dataDir: string;
  /** Limits of the sandbox runs (per test case, per snippet, memory). */
  sandbox?: RepairSandboxOptions;
  workspaceParent?: string;
  version?: string;
}

export interface RepairMcpHttpOptions extends RepairMcpOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Open sessions at most (default 256); one more initialize is a 503. */
  maxSessions?: number;
  /** Sessions idle this long are closed with their workspace (default 10 min). */
  idleSessionMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface RepairMcpHttpHandle extends McpSessionHost {}

/** Streamable HTTP at `/mcp`: each MCP session has its own workspace; DELETE /mcp ends it and removes its dir. */
export async function serveRepairMcpHttp(options: RepairMcpHttpOptions): Promise<RepairMcpHttpHandle> {
  const catalog = createProgramCatalog(options.dataDir);
  const sandbox = createRepairSandbox(options.sandbox);
  const host = await hostMcpSessions({
    port: options.port,
    ...(options.host !== undefined ? { host: options.host } : {}),
    maxSessions: options.maxSessions ?? 256,
    idleSessionMs: options.idleSessionMs ?? 10 * 60_000,
    createServer: () =>
      createRepairMcpServer({
        catalog,
        sandbox,
        ...(options.workspaceParent ? { workspaceParent: options.workspaceParent } : {}),
        ...(options.version ? { version: options.version } : {}),
      }),
    keepAliveMs: 65_000,
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
    logLabel: "code-repair mcp",
  });
  return {
    url: host.url,
    port: host.port,
    get sessions() {
      return host.sessions;
    },
    async close() {
      await host.close();
      await sandbox.close();
    },
    async [Symbol.asyncDispose]() {
      await host.close();
      await sandbox.close();
    },
  };
}

/** Over stdio: the process is one workspace (spawned fresh per attempt). `closed` resolves when stdin ends. */
export async function serveRepairMcpStdio(options: RepairMcpOptions): Promise<McpStdioHandle> {
  const sandbox = createRepairSandbox(options.sandbox);
  const server = createRepairMcpServer({
    catalog: createProgramCatalog(options.dataDir),
    sandbox,
    ...(options.workspaceParent ? { workspaceParent: options.workspaceParent } : {}),
    ...(options.version ? { version: options.version } : {}),
  });
  const handle = await serveMcpStdio(server);
  const closed = handle.closed.then(async () => {
    await server.close();
    await sandbox.close();
  });
  return { closed, close: handle.close };
}
