import { ToolMessage } from "@langchain/core/messages";
import type { ToolRunnableConfig } from "@langchain/core/tools";
import {
  DynamicStructuredTool,
  type StructuredToolCallInput,
  type ToolReturnType,
} from "@langchain/core/tools";
import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import type { z } from "zod";

type ToolCallLike = { type: "tool_call"; id?: string; args: unknown };

function isToolCall(value: unknown): value is ToolCallLike {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "tool_call";
}

/**
 * A LangChain tool that answers the model with text whatever happens. LangChain validates input before the tool
 * runs and throws on a mismatch, which would end a rollout over a model's typo; here the validation error comes
 * back as the tool's answer ("Error: ... field: problem"), which the model can read and fix.
 */
class ModelFacingTool<Schema extends z.ZodObject> extends DynamicStructuredTool<
  Schema,
  z.output<Schema>,
  z.input<Schema>,
  string
> {
  override async call<
    TArg extends StructuredToolCallInput<Schema, z.input<Schema>>,
    TConfig extends ToolRunnableConfig | undefined,
  >(
    arg: TArg,
    configArg?: TConfig,
    tags?: string[],
  ): Promise<ToolReturnType<NonNullable<TArg>, TConfig, string>> {
    const input = isToolCall(arg) ? arg.args : arg;
    const parsed = this.schema.safeParse(input);
    if (!parsed.success) {
      const content = `Error: invalid input for ${this.name}: ${formatZodIssues(parsed.error.issues)}. ${expectedShape(this.schema)}`;
      const toolCallId = isToolCall(arg)
        ? arg.id
        : (configArg as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
      const answer = toolCallId
        ? new ToolMessage({ content, tool_call_id: toolCallId, name: this.name, status: "error" })
        : content;
      return answer as ToolReturnType<NonNullable<TArg>, TConfig, string>;
    }
    return super.call(arg, configArg, tags) as Promise<ToolReturnType<NonNullable<TArg>, TConfig, string>>;
  }
}

function expectedShape(schema: z.ZodObject): string {
  const fields = Object.entries(schema.shape).map(([name, field]) => {
    const optional = (field as z.ZodType).safeParse(undefined).success;
    return `"${name}"${optional ? " (optional)" : ""}`;
  });
  return `Expected a JSON object with ${fields.join(", ")}.`;
}

export interface ModelToolDefinition<Schema extends z.ZodObject> {
  name: string;
  description: string;
  schema: Schema;
  /** Returns the text the model reads. A thrown error becomes "Error: <message>"; it never ends the rollout. */
  run(input: z.output<Schema>, options: { signal?: AbortSignal }): Promise<string>;
}

/** A tool built by createModelTool: a LangChain DynamicStructuredTool that answers with text. */
export type ModelTool<Schema extends z.ZodObject = z.ZodObject> = DynamicStructuredTool<
  Schema,
  z.output<Schema>,
  z.input<Schema>,
  string
>;

export function createModelTool<Schema extends z.ZodObject>(
  definition: ModelToolDefinition<Schema>,
): ModelTool<Schema> {
  return new ModelFacingTool<Schema>({
    name: definition.name,
    description: definition.description,
    schema: definition.schema,
    func: async (input, _runManager, config) => {
      try {
        return await definition.run(
          input as z.output<Schema>,
          config?.signal ? { signal: config.signal } : {},
        );
      } catch (error) {
        return toolErrorText(definition.name, error);
      }
    },
  });
}

/** "Error: ..." text for the model. Known errors carry a clear message; others keep only their message. */
export function toolErrorText(name: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (TfgrpoError.isInstance(error)) return `Error: ${message}`;
  return `Error: ${name} failed: ${message}`;
}
