import { z } from "zod";

/** The options of `tfgrpo trace <run>` (cli-commands/trace.ts), checked key for key by command-options.test.ts. */
export const traceCommandOptionsSchema = z
  .object({
    db: z.string().optional(),
    file: z.string().optional(),
    step: z.number().int().positive().optional(),
    rollout: z.string().optional(),
  })
  .strict();

export type TraceCommandOptions = z.infer<typeof traceCommandOptionsSchema>;
