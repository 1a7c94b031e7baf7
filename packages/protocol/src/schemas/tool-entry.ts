import { z } from "zod";

/** The tools tfgrpo ships (packages/tools). */
export const builtInToolNames = ["code_interpreter", "web_search", "web_fetch"] as const;
export const builtInToolNameSchema = z.enum(builtInToolNames);
export type BuiltInToolName = z.infer<typeof builtInToolNameSchema>;

/**
 * One entry of a domain's tool list (actor and tools config alike): a built-in tool, `mcp:<server>` (the tools of a
 * server of the tools config's `servers`) or `module:<name>` (the LangChain tools a module of `modules` exports).
 */
export const toolEntrySchema = z.union([
  builtInToolNameSchema,
  z
    .string()
    .regex(
      /^(mcp|module):[A-Za-z0-9_-]{1,64}$/,
      'a built-in tool (code_interpreter, web_search, web_fetch), "mcp:<server>" or "module:<name>"',
    ),
]);
export type ToolEntry = z.infer<typeof toolEntrySchema>;

export function isBuiltInTool(entry: string): entry is BuiltInToolName {
  return (builtInToolNames as readonly string[]).includes(entry);
}
