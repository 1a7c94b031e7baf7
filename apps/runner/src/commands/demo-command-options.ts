import { z } from "zod";

/** The options of `tfgrpo demo` (cli-commands/demo.ts), checked key for key by command-options.test.ts. */
export const demoCommandOptionsSchema = z
  .object({
    dir: z.string(),
    seed: z.number().int().nonnegative(),
    domain: z.enum(["math", "web"]),
    train: z.number().int().positive(),
    val: z.number().int().positive(),
    test: z.number().int().positive(),
    epochs: z.number().int().positive(),
    groupSize: z.number().int().positive(),
    k: z.number().int().positive(),
    concurrency: z.number().int().positive(),
  })
  .strict();

export type DemoOptions = z.infer<typeof demoCommandOptionsSchema>;
