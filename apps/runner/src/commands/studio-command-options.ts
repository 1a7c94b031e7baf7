import { z } from "zod";

/** The options of `tfgrpo studio` (cli-commands/studio.ts), checked key for key by command-options.test.ts. */
export const studioCommandOptionsSchema = z
  .object({
    db: z.string().optional(),
    config: z.string().optional(),
    port: z.number().int().nonnegative(),
    host: z.string(),
  })
  .strict();

export type StudioOptions = z.infer<typeof studioCommandOptionsSchema>;
