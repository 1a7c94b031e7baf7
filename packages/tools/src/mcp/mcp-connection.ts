import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { McpServerConfig } from "../langchain/tools-config.js";
import { mcpResultText } from "./mcp-result-text.js";
import { perRequestSignalFetch } from "./per-request-signal-fetch.js";

/** A tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface McpCallResult {
  text: string;
  isError: boolean;
}

/** One MCP client session: one spawned process (stdio) or one Mcp-Session-Id (Streamable HTTP). */
export interface McpConnection {
  readonly server: string;
  readonly tools: readonly McpToolInfo[];
  /** The session id of a Streamable HTTP connection (one per attempt with `environment: session`). */
  readonly sessionId: string | undefined;
  /** The spawned process of a stdio connection. */
  readonly pid: number | null;
  /**
   * Calls a tool: the text of its result, and whether the server marked it an error (a refused argument counts as
   * one). A connection that died, or a call past the server's `timeoutMs`, throws `environment_unavailable`: the
   * server, not the model, failed.
   */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<McpCallResult>;
  /** True once the connection is gone (closed here, or the server process exited). */
  readonly closed: boolean;
  /** Called once when the connection goes (a warm pool drops a server that dies while it waits). */
  onClose(listener: () => void): void;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** For messages: the domain whose config names the server. */
  domain: string;
  signal?: AbortSignal;
}

function describeServer(name: string, config: McpServerConfig): string {
  return "command" in config
    ? `MCP server "${name}" (${[config.command, ...config.args].join(" ")})`
    : `MCP server "${name}" (${config.url})`;
}

/** Connects (spawn + initialize, or a new HTTP session) and lists the server's tools. One line of error otherwise. */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: ConnectOptions,
): Promise<McpConnection> {
  const where = `domain ${options.domain}: ${describeServer(name, config)}`;
  let stderrTail = "";
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  if ("command" in config) {
    transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
    });
    // The last lines the server wrote say why it died; kept short, never shown to the model.
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-600);
    });
  } else {
    transport = new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers },
      fetch: perRequestSignalFetch(),
    });
  }
  const client = new Client({ name: "tfgrpo", version: "0.1.0" }, { capabilities: {} });
  let closed = false;
  const closeListeners: Array<() => void> = [];
  client.onclose = () => {
    closed = true;
    for (const listener of closeListeners.splice(0)) listener();
  };
  const fail = (what: string, error: unknown): TfgrpoError => {
    const message = (error as Error)?.message ?? String(error);
    const tail = stderrTail.trim().split("\n").at(-1);
    return new TfgrpoError(
      "environment_unavailable",
      `${where}: ${what}: ${message.replace(/\s+/g, " ")}${tail ? ` (server stderr: ${tail})` : ""}`,
      { cause: error, details: { domain: options.domain, server: name } },
    );
  };
  // The SDK never removes the abort listener it adds per request: a signal of this start-up alone keeps a long-lived
  // one (a warm pool's, shared by all its start-ups) from collecting one listener per server started.
  const starting = new AbortController();
  const forward = () => starting.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  options.signal?.addEventListener("abort", forward, { once: true });
  try {
    await client.connect(transport as Transport, { timeout: config.startTimeoutMs, signal: starting.signal });
  } catch (error) {
    await client.close().catch(() => {});
    throw fail("did not answer initialize", error);
  } finally {
    options.signal?.removeEventListener("abort", forward);
  }
  const tools: McpToolInfo[] = [];
  try {
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: config.startTimeoutMs });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? "",
          inputSchema: tool.inputSchema as Record<string, unknown>,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    await client.close().catch(() => {});
    throw fail("tools/list failed", error);
  }

  return {
    server: name,
    tools,
    sessionId: transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined,
    pid: transport instanceof StdioClientTransport ? transport.pid : null,
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
    async call(tool, args, callOptions = {}) {
      if (closed) throw fail(`calling ${tool}`, new Error("the server's connection is closed"));
      let result: Awaited<ReturnType<Client["callTool"]>>;
      // The SDK never removes the abort listener it adds per request: a per-call signal keeps the attempt's own
      // signal from collecting one listener per tool call.
      const local = new AbortController();
      const forward = () => local.abort(callOptions.signal?.reason);
      if (callOptions.signal?.aborted) forward();
      callOptions.signal?.addEventListener("abort", forward, { once: true });
      try {
        result = await client.callTool(
          { name: tool, arguments: (args ?? {}) as Record<string, unknown> },
          undefined,
          { timeout: config.timeoutMs, signal: local.signal },
        );
      } catch (error) {
        if (callOptions.signal?.aborted) throw error;
        // The server understood the request and refused it (unknown tool, bad arguments): the model's mistake.
        if (
          error instanceof McpError &&
          (error.code === ErrorCode.InvalidParams || error.code === ErrorCode.MethodNotFound)
        ) {
          return { text: `${tool}: ${error.message}`, isError: true };
        }
        throw fail(`calling ${tool}`, error);
      } finally {
        callOptions.signal?.removeEventListener("abort", forward);
      }
      return { text: mcpResultText(result as { content?: unknown }), isError: result.isError === true };
    },
    async close() {
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId && !closed) {
        // Ends the attempt's session on the server, so its state is freed at once.
        await transport.terminateSession().catch(() => {});
      }
      await client.close().catch(() => {});
    },
  };
}
