import { z } from "zod";

/**
 * The options of `tfgrpo data import`: the schema the commander declaration (cli-commands/data.ts) is checked against,
 * key for key (command-options.test.ts), and that the parsed options go through before the command runs.
 */
export const dataImportCommandOptionsSchema = z
  .object({
    preset: z.string().optional(),
    format: z.string().optional(),
    map: z.string().optional(),
    domain: z.string().optional(),
    family: z.string().optional(),
    time: z.string().optional(),
    val: z.string().optional(),
    valShare: z.number().min(0).max(1).optional(),
    splitBy: z.enum(["family", "time", "random"]).optional(),
    seed: z.number().int().nonnegative(),
    extractBoxed: z.enum(["auto", "always", "never"]),
    /** false with --no-answers: records without an answer are kept. */
    answers: z.boolean(),
    out: z.string().optional(),
    outDir: z.string().optional(),
  })
  .strict();

export type DataImportOptions = z.infer<typeof dataImportCommandOptionsSchema>;
