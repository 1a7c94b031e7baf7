import { domainSchema } from "@tfgrpo/protocol";
import { InvalidArgumentError } from "commander";

/**
 * `--domain` as commander's argParser: a library domain is a name (`math`, `web-qa`), never a path. Checked before a
 * command opens a store or writes a run row, so a bad value leaves nothing behind.
 */
export function domainArgument(value: string): string {
  const parsed = domainSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? "not a valid domain");
  return parsed.data;
}
