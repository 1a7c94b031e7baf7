import type { Command } from "commander";

/**
 * A commander preAction hook: the command's `--domain` checked as domainArgument does, when the command runs, before
 * its action (so a bad value still leaves nothing behind). domainArgument loads zod through @tfgrpo/protocol, and
 * command declarations are built at every start, `--help` included, so a declaration leaves the parser out and adds
 * this hook: `.option("--domain <domain>", "...").hook("preAction", checkDomainOption)`.
 */
export async function checkDomainOption(command: Command): Promise<void> {
  const value = command.getOptionValue("domain");
  const source = command.getOptionValueSource("domain");
  if (typeof value !== "string" || source === undefined || source === "default") return;
  const { domainArgument } = await import("./domain-argument.js");
  command.setOptionValueWithSource("domain", domainArgument(value), source);
}
