import { domainSchema, TfgrpoError } from "@tfgrpo/protocol";

/**
 * `--domain` checked as commander's argParser (or by hand where a command guesses the domain): a library domain is a
 * name (`math`, `web-qa`), never a path. Checked before a command opens a store or writes a run row, so a bad value
 * leaves nothing behind; the error is one line naming the option and the value.
 */
export function domainArgument(value: string): string {
  const parsed = domainSchema.safeParse(value);
  if (!parsed.success) {
    throw new TfgrpoError(
      "invalid_input",
      `--domain ${value}: ${parsed.error.issues[0]?.message ?? "not a name"}`,
      {
        details: { domain: value },
      },
    );
  }
  return parsed.data;
}
