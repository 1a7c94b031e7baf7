import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { TfgrpoError } from "@tfgrpo/protocol";
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

export interface RetailMcpHttpHandle extends AsyncDisposable {
  /** e.g. http://127.0.0.1:8123/mcp */
  url: string;
  port: number;
  readonly sessions: number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  used: number;
}

/**
 * Streamable HTTP at `/mcp`: each MCP session (its Mcp-Session-Id) has its own server and so its own database;
 * DELETE /mcp ends a session and frees its copy.
 */
export async function serveRetailMcpHttp(options: RetailMcpHttpOptions): Promise<RetailMcpHttpHandle> {
  const host = options.host ?? "127.0.0.1";
  const maxSessions = options.maxSessions ?? 256;
  const idleSessionMs = options.idleSessionMs ?? 10 * 60_000;
  const clock = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  let opening = 0;
  let allowedHosts: string[] = [];

  const reply = (res: ServerResponse, status: number, message: string) => {
    if (res.headersSent) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
  };
  const expireIdle = () => {
    const cutoff = clock() - idleSessionMs;
    for (const [id, session] of sessions) {
      if (session.used < cutoff) {
        sessions.delete(id);
        void session.server.close();
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return reply(res, 404, `not found: ${path} (the MCP endpoint is /mcp)`);
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) {
      existing.used = clock();
      return existing.transport.handleRequest(req, res);
    }
    if (typeof sessionId === "string") return reply(res, 404, `unknown or closed session ${sessionId}`);
    if (req.method !== "POST") return reply(res, 400, "no session: start with an initialize request (POST)");
    if (sessions.size + opening >= maxSessions) expireIdle();
    if (sessions.size + opening >= maxSessions) {
      return reply(res, 503, `too many open sessions (${maxSessions}): end one with DELETE /mcp`);
    }
    const server = createRetailMcpServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, used: clock() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    opening++;
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } finally {
      opening--;
    }
    if (!transport.sessionId) await server.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.(`tau2-retail mcp: ${(error as Error).message}`);
      reply(res, 500, `internal error: ${(error as Error).message}`);
    });
  });
  // Attempts pause between calls while the user role answers: keep idle connections well past a client's own
  // keep-alive, so a call never lands on a socket the server is closing ("fetch failed" under load).
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new TfgrpoError(
          error.code === "EADDRINUSE" ? "conflict" : "invalid_config",
          `cannot listen on ${host}:${options.port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message}`,
          { cause: error },
        ),
      ),
    );
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  allowedHosts = [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];
  const sweep = setInterval(expireIdle, Math.max(10, Math.min(idleSessionMs / 2, 60_000)));
  sweep.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((session) => session.server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    })();
    return closing;
  };
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`,
    port,
    get sessions() {
      return sessions.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Over stdio: the process is one environment (spawned fresh per attempt). `closed` resolves when stdin ends. */
export async function serveRetailMcpStdio(
  options: RetailMcpServerOptions,
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const server = createRetailMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
