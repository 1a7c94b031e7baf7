// Helpers shared with sibling packages that serve MCP (@tfgrpo/serving, @tfgrpo/tau2-retail). A subpath of its own:
// a per-attempt stdio server must not load the LangChain tools behind the main entry.
export {
  hostMcpSessions,
  type McpRefusal,
  type McpSessionHost,
  type McpSessionHostOptions,
} from "../mcp/host-mcp-sessions.js";
export { type McpStdioHandle, serveMcpStdio } from "../mcp/serve-mcp-stdio.js";
