import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { TfgrpoError } from "@tfgrpo/protocol";

/** A request answered with a JSON-RPC error instead of reaching a session. */
export interface McpRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface McpSessionHostOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Open sessions at most; one more initialize is refused with `tooManySessions` until one closes or expires. */
  maxSessions: number;
  /** Sessions idle this long are closed (their MCP server with them). */
  idleSessionMs: number;
  /** A new session's MCP server, for the client `admit` named (undefined: anonymous). */
  createServer(client: string | undefined): McpServer;
  /**
   * Runs first on every request, before its path is read, so a refused client costs nothing more: returns the
   * client the request speaks for, or a refusal. `sessionOpen`: its Mcp-Session-Id names an open session.
   * Default: every request is anonymous.
   */
  admit?(request: IncomingMessage, sessionOpen: boolean): { client: string | undefined } | McpRefusal;
  /** The answer to one initialize too many (default a 503 naming `maxSessions`). */
  tooManySessions?: McpRefusal;
  /**
   * Keep idle HTTP connections this long (Node's default otherwise): clients that pause between calls must not
   * land on a socket the server is closing.
   */
  keepAliveMs?: number;
  /** Milliseconds, for session idleness (default `Date.now`). */
  now?: () => number;
  /** Where a request's unexpected failure is told, each line starting with `logLabel`. */
  log?: (line: string) => void;
  logLabel?: string;
}

export interface McpSessionHost extends AsyncDisposable {
  /** The endpoint, e.g. http://127.0.0.1:8123/mcp. */
  url: string;
  port: number;
  /** Open sessions (one per connected client). */
  readonly sessions: number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  used: number;
  client: string | undefined;
}

/**
 * MCP over Streamable HTTP at `/mcp`: POST for calls, GET for a client's event stream, DELETE to end a session.
 * Each client that initializes gets a session with its own MCP server object (one transport each); a session
 * answers only the client that opened it. DNS-rebinding protection accepts only the bound host's names.
 */
export async function hostMcpSessions(options: McpSessionHostOptions): Promise<McpSessionHost> {
  const host = options.host ?? "127.0.0.1";
  const { maxSessions, idleSessionMs } = options;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new TfgrpoError("invalid_config", `max sessions must be a whole number >= 1, got ${maxSessions}`);
  }
  const clock = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  /** Initialize requests being answered: they hold a slot before their session has an id. */
  let opening = 0;
  let allowedHosts: string[] = [];

  const reply = (res: ServerResponse, refusal: McpRefusal) => {
    if (res.headersSent) return;
    res.writeHead(refusal.status, { "content-type": "application/json", ...refusal.headers });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: refusal.message }, id: null }));
  };
  const tooManySessions = options.tooManySessions ?? {
    status: 503,
    message: `too many open sessions (${maxSessions}): end one with DELETE /mcp`,
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
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    const admitted = options.admit ? options.admit(req, existing !== undefined) : { client: undefined };
    if ("status" in admitted) return reply(res, admitted);
    const { client } = admitted;
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp")
      return reply(res, { status: 404, message: `not found: ${path} (the MCP endpoint is /mcp)` });
    if (existing) {
      if (existing.client !== client) {
        return reply(res, {
          status: 403,
          message: `session ${sessionId} belongs to another client; start your own session`,
        });
      }
      existing.used = clock();
      return existing.transport.handleRequest(req, res);
    }
    if (typeof sessionId === "string") {
      return reply(res, { status: 404, message: `unknown or closed session ${sessionId}` });
    }
    if (req.method !== "POST") {
      return reply(res, { status: 400, message: "no session: start with an initialize request (POST)" });
    }
    if (sessions.size + opening >= maxSessions) expireIdle();
    if (sessions.size + opening >= maxSessions) return reply(res, tooManySessions);
    // A new client: the transport answers its initialize request and names the session.
    const server = options.createServer(client);
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
      options.log?.(`${options.logLabel ?? "mcp http"}: ${(error as Error).message}`);
      reply(res, { status: 500, message: `internal error: ${(error as Error).message}` });
    });
  });
  if (options.keepAliveMs !== undefined) {
    http.keepAliveTimeout = options.keepAliveMs;
    // Node wants headersTimeout above keepAliveTimeout, else a reused socket can be cut mid-request.
    http.headersTimeout = options.keepAliveMs + 1000;
  }
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
    close,
    [Symbol.asyncDispose]: close,
  };
}
