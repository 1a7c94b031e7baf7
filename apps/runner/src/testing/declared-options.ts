import { Command } from "commander";
import type { z } from "zod";

/**
 * What a commander command declares beside what its options schema holds, both sorted: equal when the declaration
 * (cli-commands/, free of zod so that `--help` stays light) and the schema agree key for key.
 */
export function declaredOptions(
  command: Command,
  schema: z.ZodObject<z.ZodRawShape>,
): { declared: string[]; schema: string[] } {
  return {
    declared: command.options.map((option) => option.attributeName()).sort(),
    schema: Object.keys(schema.shape).sort(),
  };
}

/** The subcommand at `path` (e.g. ["data", "import"]) of a program, or an error naming the missing part. */
export function findCommand(program: Command, path: readonly string[]): Command {
  let command = program;
  for (const name of path) {
    const next = command.commands.find((candidate) => candidate.name() === name);
    if (!next) throw new Error(`no command "${path.join(" ")}" (missing "${name}")`);
    command = next;
  }
  return command;
}

/**
 * Parses `args` with the command at `path` (its action replaced, so nothing runs; its hooks run) and returns what
 * commander hands the action (or what `read` makes of it): defaults, converted numbers, negations and choices, to check against the schema.
 */
export async function parsedOptions(
  register: (program: Command) => void,
  path: readonly string[],
  args: readonly string[],
  read: (command: Command) => Record<string, unknown> = (command) => command.opts(),
): Promise<Record<string, unknown>> {
  const program = new Command().exitOverride();
  register(program);
  const command = findCommand(program, path);
  let seen: Record<string, unknown> | undefined;
  command.action(() => {
    seen = read(command);
  });
  await program.parseAsync([...path, ...args], { from: "user" });
  if (!seen) throw new Error(`"${path.join(" ")}" did not run`);
  return seen;
}
