import type { z } from "zod";

/**
 * A command's options checked against its schema, in its action: the schema and zod load only when the command runs,
 * so the declarations (cli-commands/) stay light for `--help`. `load` imports the command's options module.
 */
export async function checkedOptions<Schema extends z.ZodType>(
  command: string,
  load: () => Promise<Schema>,
  raw: unknown,
): Promise<z.infer<Schema>> {
  const [schema, { parseCommandOptions }] = await Promise.all([
    load(),
    import("../commands/parse-command-options.js"),
  ]);
  return parseCommandOptions(command, schema, raw);
}
