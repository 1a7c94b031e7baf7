/**
 * A tool of an attempt's environment, framework-free: what an MCP server lists (name, description, JSON Schema
 * input) and a call that returns the result's text (a text starting with "Error" is the tool refusing).
 */
export interface EnvironmentTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  call(input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * One attempt's environment as `learn --agent` / `eval --agent` hand it to a team's agent (`input.environment`):
 * the domain's MCP tools bound to this attempt's own state (its MCP session or server process, reset for the task),
 * three ways. It closes when the attempt ends.
 */
export interface AgentEnvironment {
  /**
   * The attempt's MCP endpoint (Streamable HTTP on 127.0.0.1), serving `tools` and nothing else (never the
   * `environment_*` controls): for `@ai-sdk/mcp` (`createMCPClient({ transport: { type: "http", url } })`) or any
   * MCP client.
   */
  url: string;
  /**
   * The same endpoint as an MCP client config keyed by the domain, `{ [domain]: { transport: "http", url } }`:
   * `new MultiServerMCPClient({ mcpServers })` of `@langchain/mcp-adapters` takes it as it is.
   */
  mcpServers: Record<string, { transport: "http"; url: string }>;
  /** The tools themselves: call them directly, or wrap them for a framework (`environmentTools` of @tfgrpo/ai-sdk). */
  tools: EnvironmentTool[];
}
