import { formatZodIssues, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import type { z } from "zod";

/** A record about to be written, checked with its schema; a bad one is `invalid_input` naming what it is. */
export function parseRecord<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new TfgrpoError("invalid_input", `invalid ${what}: ${formatZodIssues(result.error.issues)}`, {
      details: { what },
    });
  }
  return result.data;
}

/** Stored JSON is ours, but a file can be damaged: a bad value names the table, row and field. */
export function readStoredJson<T>(text: string, where: string, schema?: z.ZodType<T>): T {
  const parsed = safeParseJson(text, schema);
  if (!parsed.success) {
    throw new TfgrpoError("internal", `corrupt stored value in ${where}: ${parsed.error}`, {
      details: { where },
    });
  }
  return parsed.value;
}
