import { TfgrpoError } from "@tfgrpo/protocol";
import type { RetailDb } from "../retail-db.js";
import { type RetailToolSpec, retailToolSpecs } from "./retail-tool-specs.js";

const byName = new Map<string, RetailToolSpec>(retailToolSpecs.map((tool) => [tool.name, tool]));

export type RetailToolOutcome = { ok: true; text: string } | { ok: false; text: string };

/**
 * Runs one tool call against `db` (changed in place by writes). A refused call, an unknown tool or bad arguments
 * is `ok: false` with `Error: <message>`, as τ² shows a tool error to the model; a write's checks run before its
 * changes, as in τ².
 */
export function callRetailTool(db: RetailDb, name: string, args: unknown): RetailToolOutcome {
  const tool = byName.get(name);
  if (!tool) return { ok: false, text: `Error: Tool '${name}' not found.` };
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      text: `Error: ${name}: argument ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    };
  }
  try {
    const result = tool.run(db, parsed.data as never);
    return { ok: true, text: typeof result === "string" ? result : JSON.stringify(result) };
  } catch (error) {
    if (TfgrpoError.hasCode(error, "tool_error")) return { ok: false, text: `Error: ${error.message}` };
    throw error;
  }
}

export const isRetailWriteTool = (name: string) => byName.get(name)?.kind === "write";
