import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  hostMcpSessions,
  type McpRefusal,
  type McpStdioHandle,
  serveMcpStdio as serveServerOverStdio,
} from "@tfgrpo/tools/internal";
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
  const idleSessionMs = options.idleSessionMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 100;
  const gate = createClientGate({
    ...(options.clientTokens ? { clientTokens: options.clientTokens } : {}),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  let rateLimited = 0;

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
  const admit = (req: IncomingMessage, sessionOpen: boolean): { client: string | undefined } | McpRefusal => {
    const identity = identify(req);
    if ("refused" in identity) return { status: 401, message: identity.refused };
    const { client } = identity;
    // Refused before anything else is read: a flooding client costs a bucket lookup per request. An anonymous
    // client is its session (only an open one: made-up ids would each get a full bucket), else its address.
    const key =
      client ??
      (sessionOpen ? `session ${req.headers["mcp-session-id"]}` : `address ${req.socket.remoteAddress}`);
    const admitted = gate.admit(key);
    if (admitted.ok) return { client };
    rateLimited++;
    return {
      status: 429,
      message: admitted.message,
      headers: { "retry-after": String(Math.max(1, Math.ceil(admitted.retryAfterMs / 1000))) },
    };
  };

  const host = await hostMcpSessions({
    port: options.port,
    ...(options.host !== undefined ? { host: options.host } : {}),
    maxSessions,
    idleSessionMs,
    createServer: (client) =>
      createLibraryMcpServer({ ...options, ...(client === undefined ? {} : { client }) }),
    admit,
    tooManySessions: {
      status: 503,
      message:
        `too many open MCP sessions (${maxSessions}, the server's --max-sessions): close one (DELETE /mcp with ` +
        `its mcp-session-id) or retry when an idle one expires (after ${Math.round(idleSessionMs / 1000)} s idle)`,
      headers: { "retry-after": String(Math.max(1, Math.min(60, Math.ceil(idleSessionMs / 1000)))) },
    },
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
    logLabel: "mcp http",
  });
  return {
    url: host.url,
    port: host.port,
    get sessions() {
      return host.sessions;
    },
    get rateLimited() {
      return rateLimited;
    },
    close: () => host.close(),
    [Symbol.asyncDispose]: () => host.close(),
  };
}

/**
 * The MCP server over stdio (for clients that spawn `tfgrpo mcp` themselves): stdout carries the protocol only.
 * Resolves with a handle; `closed` resolves when the client closes stdin or the transport ends.
 */
export async function serveMcpStdio(options: CreateMcpServerOptions): Promise<McpStdioHandle> {
  return serveServerOverStdio(createLibraryMcpServer(options));
}
