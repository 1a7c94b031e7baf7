import { z } from "zod";

/** The options of `tfgrpo tool run <name>` (cli-commands/tool.ts), checked key for key by command-options.test.ts. */
export const toolRunCommandOptionsSchema = z
  .object({
    input: z.string(),
    allowHost: z.array(z.string()),
    corpus: z.string().optional(),
    searxng: z.string().optional(),
    tavilyKeyEnv: z.string().optional(),
    braveKeyEnv: z.string().optional(),
    timeoutMs: z.number().int().nonnegative().optional(),
    allowUnsandboxed: z.boolean().optional(),
    modelView: z.boolean().optional(),
  })
  .strict();

export type ToolRunOptions = z.infer<typeof toolRunCommandOptionsSchema>;
