import {
  hostMcpSessions,
  type McpSessionHost,
  type McpStdioHandle,
  serveMcpStdio,
} from "@tfgrpo/tools/internal";
import { createRetailMcpServer, type RetailMcpServerOptions } from "./create-retail-mcp-server.js";

export interface RetailMcpHttpOptions extends RetailMcpServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Open sessions at most (default 256: G attempts × concurrency); one more initialize is a 503. */
  maxSessions?: number;
  /** Sessions idle this long are closed with their database (default 10 min). */
  idleSessionMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

/** The endpoint (e.g. http://127.0.0.1:8123/mcp), its port, the open sessions and `close`. */
export type RetailMcpHttpHandle = McpSessionHost;

/**
 * Streamable HTTP at `/mcp`: each MCP session (its Mcp-Session-Id) has its own server and so its own database;
 * DELETE /mcp ends a session and frees its copy.
 */
export async function serveRetailMcpHttp(options: RetailMcpHttpOptions): Promise<RetailMcpHttpHandle> {
  return hostMcpSessions({
    port: options.port,
    ...(options.host !== undefined ? { host: options.host } : {}),
    maxSessions: options.maxSessions ?? 256,
    idleSessionMs: options.idleSessionMs ?? 10 * 60_000,
    createServer: () => createRetailMcpServer(options),
    // Attempts pause between calls while the user role answers: keep idle connections well past a client's own
    // keep-alive, so a call never lands on a socket the server is closing ("fetch failed" under load).
    keepAliveMs: 65_000,
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
    logLabel: "tau2-retail mcp",
  });
}

/** Over stdio: the process is one environment (spawned fresh per attempt). `closed` resolves when stdin ends. */
export async function serveRetailMcpStdio(options: RetailMcpServerOptions): Promise<McpStdioHandle> {
  return serveMcpStdio(createRetailMcpServer(options));
}
