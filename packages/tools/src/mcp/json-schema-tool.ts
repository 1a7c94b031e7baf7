import { Validator } from "@cfworker/json-schema";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { DynamicStructuredTool } from "@langchain/core/tools";
import { TfgrpoError } from "@tfgrpo/protocol";
import { capText } from "./cap-text.js";

export interface JsonSchemaToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** A result longer than this is cut (head and tail) before anyone reads it. */
  maxOutputChars: number;
  run(input: Record<string, unknown>, options: { signal?: AbortSignal }): Promise<string>;
}

/**
 * A LangChain tool whose input is a JSON Schema (an MCP tool's). Input that does not match comes back to the model
 * as "Error: invalid input for <tool>: <where>: <problem>" instead of LangChain's exception; a thrown
 * `environment_unavailable` (the server died) goes through to the actor, which fails the attempt as infrastructure;
 * any other failure is text for the model.
 */
export function createJsonSchemaTool(definition: JsonSchemaToolDefinition): StructuredToolInterface {
  const validator = new Validator(definition.inputSchema as never, "2020-12", false);
  const tool = new DynamicStructuredTool({
    name: definition.name,
    description: definition.description,
    schema: definition.inputSchema as never,
    func: async (input: unknown, _runManager, config) => {
      try {
        const text = await definition.run(
          input as Record<string, unknown>,
          config?.signal ? { signal: config.signal } : {},
        );
        return capText(text, definition.maxOutputChars);
      } catch (error) {
        if (TfgrpoError.hasCode(error, "environment_unavailable") || config?.signal?.aborted) throw error;
        return `Error: ${definition.name} failed: ${(error as Error)?.message ?? String(error)}`;
      }
    },
  });
  const invoke = tool.invoke.bind(tool);
  // Validated here rather than by LangChain, whose error names neither the field nor the problem.
  tool.invoke = (async (input: unknown, config?: unknown) => {
    const args = isToolCall(input) ? input.args : input;
    const value = args ?? {};
    const checked = validator.validate(value);
    if (!checked.valid) {
      const problems = checked.errors
        .filter((error) => error.keyword !== "properties" && error.keyword !== "$ref")
        .slice(0, 3)
        .map((error) => `${error.instanceLocation.replace(/^#/, "") || "(input)"}: ${error.error}`);
      return `Error: invalid input for ${definition.name}: ${problems.join("; ") || "does not match the schema"}`;
    }
    return invoke((isToolCall(input) ? { ...input, args: value } : value) as never, config as never);
  }) as typeof tool.invoke;
  return tool as unknown as StructuredToolInterface;
}

function isToolCall(value: unknown): value is { type: "tool_call"; args: unknown } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "tool_call";
}
