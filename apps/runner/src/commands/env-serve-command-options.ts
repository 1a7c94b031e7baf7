import { z } from "zod";

/**
 * The options of `tfgrpo env serve`: the schema the commander declaration (cli-commands/env.ts) is checked against,
 * key for key (command-options.test.ts), and that the parsed options go through before the command runs.
 */
export const envServeCommandOptionsSchema = z
  .object({
    data: z.string(),
    http: z.number().int().nonnegative().optional(),
    host: z.string().optional(),
    maxSessions: z.number().int().positive().optional(),
  })
  .strict();

export type EnvServeOptions = z.infer<typeof envServeCommandOptionsSchema>;
