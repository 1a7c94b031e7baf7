import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

export interface McpStdioHandle {
  /** Resolves when the client closes stdin or the transport ends. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** One MCP server over this process's stdio (for clients that spawn it): stdout carries the protocol only. */
export async function serveMcpStdio(server: McpServer): Promise<McpStdioHandle> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
