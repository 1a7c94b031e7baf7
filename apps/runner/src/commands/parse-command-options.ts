import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import type { z } from "zod";

/**
 * A command's options as commander hands them over, checked against the command's schema (commands/*-command-options.ts)
 * before the command runs: one invalid_input error naming the command and each field, or the typed options.
 */
export function parseCommandOptions<Schema extends z.ZodType>(
  command: string,
  schema: Schema,
  raw: unknown,
): z.infer<Schema> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    // Named as the user typed them: maxSessions is --max-sessions.
    const issues = parsed.error.issues.map((issue) => {
      const [key, ...rest] = issue.path;
      if (typeof key !== "string") return issue;
      return {
        ...issue,
        path: [`--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`, ...rest],
      };
    });
    throw new TfgrpoError("invalid_input", `${command}: ${formatZodIssues(issues)}`, {
      details: { issues: parsed.error.issues },
    });
  }
  return parsed.data;
}
