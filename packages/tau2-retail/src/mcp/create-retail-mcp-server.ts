import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { RetailDb } from "../retail-db.js";
import { createRetailEnvironment } from "../retail-environment.js";
import { retailToolSpecs } from "../tools/retail-tool-specs.js";

/** Control tools: never shown to the model (the `environment_` prefix is the contract with the actor's tool loader). */
export const environmentResetTool = "environment_reset";
export const environmentStateTool = "environment_state";
export const environmentChangesTool = "environment_changes";

export interface RetailMcpServerOptions {
  /** The loaded db.json; every session starts from its own copy. */
  initial: RetailDb;
  name?: string;
  version?: string;
}

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError: true } : {}),
});

/**
 * An MCP server with one environment: the retail tools over a private copy of the database, `environment_reset`
 * (`{ task }`: a fresh copy for that task), `environment_state` (`{}`: the database as JSON) and
 * `environment_changes` (`{}`: the changes since the reset, a few records instead of the 2.8 MB state). One server per
 * MCP connection, so a stdio process or an HTTP session is one attempt's world.
 */
export function createRetailMcpServer(options: RetailMcpServerOptions): McpServer {
  const environment = createRetailEnvironment(options.initial);
  const server = new McpServer(
    { name: options.name ?? "tau2-retail", version: options.version ?? "0.1.0" },
    {
      instructions:
        "τ²-bench retail: the store's agent tools over this session's own database. Call environment_reset with " +
        "the task before an attempt and environment_state after it; the other tools are the agent's.",
    },
  );
  for (const tool of retailToolSpecs) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.input.shape },
      async (args: unknown) => {
        const outcome = environment.call(tool.name, args);
        return text(outcome.text, !outcome.ok);
      },
    );
  }
  server.registerTool(
    environmentResetTool,
    {
      description: "Control: reset this session's database for a task (a fresh copy of db.json).",
      inputSchema: { task: z.unknown().describe("The task (tfgrpo Task JSON)") },
    },
    async (args: { task?: unknown }) => {
      environment.reset(args.task);
      return text("reset");
    },
  );
  server.registerTool(
    environmentStateTool,
    { description: "Control: this session's database as JSON.", inputSchema: {} },
    async () => text(JSON.stringify(environment.state())),
  );
  server.registerTool(
    environmentChangesTool,
    {
      description:
        "Control: this session's database changes since the last environment_reset, as JSON (RFC 6901 paths, add, " +
        "remove and replace): what environment_state's diff against the reset state would be, without the whole state.",
      inputSchema: {},
    },
    async () => text(JSON.stringify(environment.changes())),
  );
  return server;
}
