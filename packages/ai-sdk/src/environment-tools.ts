import type { AgentEnvironment } from "@tfgrpo/protocol";
import { dynamicTool, jsonSchema, type ToolSet } from "ai";

/**
 * The tools of an attempt's environment (`input.environment` under `tfgrpo learn --agent`) as AI SDK tools, by name:
 * `new ToolLoopAgent({ model, tools: { ...environmentTools(environment), ...yourTools } })`. Each call goes to the
 * attempt's own state; no MCP client to open or close. Without an environment, no tools.
 */
export function environmentTools(environment: Pick<AgentEnvironment, "tools"> | undefined): ToolSet {
  return Object.fromEntries(
    (environment?.tools ?? []).map((tool) => [
      tool.name,
      dynamicTool({
        description: tool.description,
        inputSchema: jsonSchema(tool.inputSchema),
        execute: (input, { abortSignal }) =>
          tool.call((input ?? {}) as Record<string, unknown>, abortSignal ? { signal: abortSignal } : {}),
      }),
    ]),
  );
}
