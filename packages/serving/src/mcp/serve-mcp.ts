import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { TfgrpoError } from "@tfgrpo/protocol";
import { createClientGate } from "../service/client-gate.js";
import { bearerToken, type ClientTokens } from "../service/client-tokens.js";
import type { RateLimitSettings } from "../service/rate-limit.js";
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
  /**
   * Client tokens (token -> client name): a request whose bearer token is one of them belongs to that client (its
   * selections and outcomes are stored with the name, its rate limit is its own). When set, a request with any other
   * token (but `token`) is a 401.
   */
  clientTokens?: ClientTokens;
  /**
   * Requests per second and burst per client (its client token's name, else its session, else its address); beyond
   * them a 429 with Retry-After. Default `defaultRateLimit`; false or `perSecond: 0`: no limit.
   */
  rateLimit?: Partial<RateLimitSettings> | false;
  /** Open sessions at most (default 100); one more initialize is a 503 until one closes or expires. */
  maxSessions?: number;
  /** Sessions idle this long are closed (default 30 min). */
  idleSessionMs?: number;
  log?: (line: string) => void;
  /** Milliseconds, for the rate limit and session idleness (default `Date.now`). */
  now?: () => number;
}

export interface McpHttpHandle extends AsyncDisposable {
  /** The endpoint, e.g. http://127.0.0.1:8123/mcp. */
  url: string;
  port: number;
  /** Open sessions (one per connected client). */
  readonly sessions: number;
  /** Requests refused by the rate limit so far. */
  readonly rateLimited: number;
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
  const maxSessions = options.maxSessions ?? 100;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new TfgrpoError("invalid_config", `max sessions must be a whole number >= 1, got ${maxSessions}`);
  }
  const clock = options.now ?? Date.now;
  const gate = createClientGate({
    ...(options.clientTokens ? { clientTokens: options.clientTokens } : {}),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; server: McpServer; used: number; client: string | undefined }
  >();
  /** Initialize requests being answered: they hold a slot before their session has an id. */
  let opening = 0;
  let rateLimited = 0;
  let allowedHosts: string[] = [];

  const reply = (
    res: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    if (res.headersSent) return;
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
  };

  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);
  const sharedToken = (req: IncomingMessage) => {
    if (expected === undefined) return false;
    const given = Buffer.from(req.headers.authorization ?? "");
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  /** Who sends the request: a client token's name, anonymous (undefined), or refused (a message). */
  const identify = (req: IncomingMessage): { client: string | undefined } | { refused: string } => {
    if (sharedToken(req)) return { client: undefined };
    if (gate.tokensRequired) {
      const identity = gate.identify(bearerToken(req.headers.authorization));
      return identity.ok
        ? { client: identity.client }
        : { refused: `${identity.message} (send Authorization: Bearer <token>)` };
    }
    return expected === undefined
      ? { client: undefined }
      : { refused: "unauthorized: send Authorization: Bearer <token>" };
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
    const identity = identify(req);
    if ("refused" in identity) return reply(res, 401, identity.refused);
    const { client } = identity;
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    // Refused before anything else is read: a flooding client costs a bucket lookup per request. An anonymous
    // client is its session (only an open one: made-up ids would each get a full bucket), else its address.
    const key = client ?? (existing ? `session ${sessionId}` : `address ${req.socket.remoteAddress}`);
    const admitted = gate.admit(key);
    if (!admitted.ok) {
      rateLimited++;
      return reply(res, 429, admitted.message, {
        "retry-after": String(Math.max(1, Math.ceil(admitted.retryAfterMs / 1000))),
      });
    }
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return reply(res, 404, `not found: ${path} (the MCP endpoint is /mcp)`);
    if (existing) {
      if (existing.client !== client) {
        return reply(res, 403, `session ${sessionId} belongs to another client; start your own session`);
      }
      existing.used = clock();
      return existing.transport.handleRequest(req, res);
    }
    if (typeof sessionId === "string") return reply(res, 404, `unknown or closed session ${sessionId}`);
    if (req.method !== "POST") return reply(res, 400, "no session: start with an initialize request (POST)");
    if (sessions.size + opening >= maxSessions) expireIdle();
    if (sessions.size + opening >= maxSessions) {
      return reply(
        res,
        503,
        `too many open MCP sessions (${maxSessions}, the server's --max-sessions): close one (DELETE /mcp with ` +
          `its mcp-session-id) or retry when an idle one expires (after ${Math.round(idleSessionMs / 1000)} s idle)`,
        { "retry-after": String(Math.max(1, Math.min(60, Math.ceil(idleSessionMs / 1000)))) },
      );
    }
    // A new client: the transport answers its initialize request and names the session.
    const server = createLibraryMcpServer({ ...options, ...(client === undefined ? {} : { client }) });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, used: clock(), client });
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
  const displayHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${port}/mcp`,
    port,
    get sessions() {
      return sessions.size;
    },
    get rateLimited() {
      return rateLimited;
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
