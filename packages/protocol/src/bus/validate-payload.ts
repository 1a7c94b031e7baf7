import { TfgrpoError } from "../errors.js";
import { formatZodIssues } from "../safe-parse-json.js";
import type { Subject } from "./subject.js";

/**
 * Checks a payload against its subject's schema, as every Bus does on both ends, so a malformed payload fails at
 * the boundary with the field named (`tfgrpo.x input: task.question: ...`). Returns the parsed value.
 */
export function validatePayload<T>(
  subject: Subject<unknown, unknown>,
  which: "input" | "output",
  value: T,
): T {
  const schema = which === "input" ? subject.input : subject.output;
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new TfgrpoError(
      "invalid_input",
      `${subject.name} ${which}: ${formatZodIssues(parsed.error.issues)}`,
      {
        details: { subject: subject.name, which },
      },
    );
  }
  return parsed.data as T;
}
