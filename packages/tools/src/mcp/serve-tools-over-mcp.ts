import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { EnvironmentTool } from "@tfgrpo/protocol";
import { hostMcpSessions } from "./host-mcp-sessions.js";

export interface ServedTools extends AsyncDisposable {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  /** Open client sessions. */
  readonly sessions: number;
  close(): Promise<void>;
}

export interface ServeToolsOptions {
  /** The server's name in `initialize` (what an MCP client calls it). */
  name: string;
  /** Clients connected at once at most (default 8). */
  maxSessions?: number;
}

/**
 * Serves a fixed list of tools over MCP (a result text starting with "Error", or a throw, is an error result) (Streamable HTTP on 127.0.0.1, a free port): one attempt's tools, so an
 * agent's own MCP client (`@langchain/mcp-adapters`, `@ai-sdk/mcp`, ...) reaches the same tools, bound to the same
 * state, as the tool objects tfgrpo hands it. Every client session sees the same tools; closing ends them all.
 */
export async function serveToolsOverMcp(
  tools: readonly EnvironmentTool[],
  options: ServeToolsOptions,
): Promise<ServedTools> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const host = await hostMcpSessions({
    port: 0,
    maxSessions: options.maxSessions ?? 8,
    // The attempt's timeout ends the host before this matters; a client that paused is not cut off meanwhile.
    idleSessionMs: 60 * 60_000,
    keepAliveMs: 60_000,
    logLabel: `mcp ${options.name}`,
    createServer() {
      const server = new McpServer({ name: options.name, version: "0.1.0" });
      server.server.registerCapabilities({ tools: { listChanged: false } });
      server.server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema as { type: "object" },
        })),
      }));
      server.server.setRequestHandler(
        CallToolRequestSchema,
        async (request, extra): Promise<CallToolResult> => {
          const tool = byName.get(request.params.name);
          if (!tool) {
            return {
              content: [{ type: "text", text: `unknown tool ${request.params.name}` }],
              isError: true,
            };
          }
          try {
            const text = await tool.call(request.params.arguments ?? {}, { signal: extra.signal });
            return {
              content: [{ type: "text", text }],
              ...(text.startsWith("Error") ? { isError: true } : {}),
            };
          } catch (error) {
            return {
              content: [{ type: "text", text: `Error: ${(error as Error)?.message ?? String(error)}` }],
              isError: true,
            };
          }
        },
      );
      return server;
    },
  });
  return {
    url: host.url,
    get sessions() {
      return host.sessions;
    },
    close: () => host.close(),
    [Symbol.asyncDispose]: () => host.close(),
  };
}
