import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { EnvironmentTool } from "@tfgrpo/protocol";

/**
 * A LangChain tool as a framework-free tool: its input as JSON Schema (an MCP tool's schema stays as the server
 * gave it; a zod schema is converted) and a call that returns the result's text. The call is the tool's own
 * `invoke`: the same validation, output cap and failures (a thrown `environment_unavailable` goes through).
 */
export function servedToolOf(tool: StructuredToolInterface): EnvironmentTool {
  const schema = tool.schema as unknown;
  const inputSchema = (
    isJsonSchema(schema) ? schema : toJsonSchema(schema as Parameters<typeof toJsonSchema>[0])
  ) as Record<string, unknown>;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema,
    async call(input, options = {}) {
      const output: unknown = await tool.invoke(input, options.signal ? { signal: options.signal } : {});
      return typeof output === "string" ? output : JSON.stringify(output);
    },
  };
}

function isJsonSchema(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !("_def" in value) &&
    !("_zod" in value) &&
    !("~standard" in value)
  );
}
