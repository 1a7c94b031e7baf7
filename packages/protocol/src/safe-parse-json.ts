import type { z } from "zod";

export type SafeParseResult<T> = { success: true; value: T } | { success: false; error: string };

/** JSON.parse for outside data: never throws, optionally validates with a zod schema. */
export function safeParseJson<T = unknown>(text: string, schema?: z.ZodType<T>): SafeParseResult<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { success: false, error: `invalid JSON: ${(error as Error).message}` };
  }
  if (!schema) return { success: true, value: value as T };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { success: true, value: parsed.data };
  return { success: false, error: formatZodIssues(parsed.error.issues) };
}

/** `field.path: problem; other.field: problem` — the form every validation error in tfgrpo uses. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${formatPath(issue.path) || "(root)"}: ${issue.message}`).join("; ");
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}
