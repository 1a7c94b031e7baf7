import { z } from "zod";

/**
 * The options of `tfgrpo models check`: the schema the commander declaration (cli-commands/models.ts) is checked
 * against, key for key (command-options.test.ts), and that the parsed options go through before the command runs.
 */
export const modelsCheckCommandOptionsSchema = z
  .object({
    config: z.string(),
    timeoutMs: z.number().int().positive(),
    mode: z.enum(["tools", "direct"]),
    json: z.boolean().optional(),
  })
  .strict();

export type ModelsCheckOptions = z.infer<typeof modelsCheckCommandOptionsSchema>;
