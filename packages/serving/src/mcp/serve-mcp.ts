import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { TfgrpoError } from "@tfgrpo/protocol";
import { type CreateMcpServerOptions, createLibraryMcpServer } from "./create-mcp-server.js";

export interface McpHttpOptions extends CreateMcpServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1: the library is the workspace's, not the network's. */
  host?: string;
  /**
   * When set, every request needs `Authorization: Bearer <token>` (anything else is a 401). The caller decides when
   * one is required (`tfgrpo mcp` requires it on any host but loopback).
   */
  token?: string;
  /** Sessions idle this long are closed (default 30 min). */
  idleSessionMs?: number;
  log?: (line: string) => void;
}

export interface McpHttpHandle extends AsyncDisposable {
  /** The endpoint, e.g. http://127.0.0.1:8123/mcp. */
  url: string;
  port: number;
  /** Open sessions (one per connected client). */
  readonly sessions: number;
  close(): Promise<void>;
}

/**
 * The MCP server over Streamable HTTP at `/mcp`: POST for calls, GET for a client's event stream, DELETE to end a
 * session. Each client that initializes gets a session with its own MCP server object (one transport each) over the
 * shared library service. DNS-rebinding protection accepts only the bound host's names; with `token`, every request
 * must carry it.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpHandle> {
  const host = options.host ?? "127.0.0.1";
  const idleSessionMs = options.idleSessionMs ?? 30 * 60_000;
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; server: McpServer; used: number }
  >();
  let allowedHosts: string[] = [];

  const reply = (res: ServerResponse, status: number, message: string) => {
    if (res.headersSent) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
  };

  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);
  const authorized = (req: IncomingMessage) => {
    if (expected === undefined) return true;
    const given = Buffer.from(req.headers.authorization ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorized(req)) return reply(res, 401, "unauthorized: send Authorization: Bearer <token>");
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return reply(res, 404, `not found: ${path} (the MCP endpoint is /mcp)`);
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) {
      existing.used = Date.now();
      return existing.transport.handleRequest(req, res);
    }
    if (typeof sessionId === "string") return reply(res, 404, `unknown or closed session ${sessionId}`);
    if (req.method !== "POST") return reply(res, 400, "no session: start with an initialize request (POST)");
    // A new client: the transport answers its initialize request and names the session.
    const server = createLibraryMcpServer(options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, used: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // Not an initialize request after all (the transport refused it): nothing to keep.
    if (!transport.sessionId) await server.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.(`mcp http: ${(error as Error).message}`);
      reply(res, 500, `internal error: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new TfgrpoError(
          error.code === "EADDRINUSE" ? "conflict" : "invalid_config",
          `cannot listen on ${host}:${options.port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message}`,
          { cause: error, details: { host, port: options.port } },
        ),
      ),
    );
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  allowedHosts = [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleSessionMs;
      for (const [id, session] of sessions) {
        if (session.used < cutoff) {
          sessions.delete(id);
          void session.server.close();
        }
      }
    },
    Math.min(idleSessionMs, 60_000),
  );
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
  const displayHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${port}/mcp`,
    port,
    get sessions() {
      return sessions.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * The MCP server over stdio (for clients that spawn `tfgrpo mcp` themselves): stdout carries the protocol only.
 * Resolves with a handle; `closed` resolves when the client closes stdin or the transport ends.
 */
export async function serveMcpStdio(
  options: CreateMcpServerOptions,
): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const server = createLibraryMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
