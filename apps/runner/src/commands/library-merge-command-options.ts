import { z } from "zod";

/** The options of `tfgrpo library merge` (cli-commands/library-merge.ts), checked key for key by command-options.test.ts. */
export const libraryMergeCommandOptionsSchema = z
  .object({
    /** A domain in the database, or a library file (.json / .md). */
    from: z.string(),
    into: z.string(),
    db: z.string().optional(),
    config: z.string().optional(),
    sim: z.boolean().optional(),
    /** false: leave the merged version proposed (for a validation gate). */
    commit: z.boolean().optional(),
    runId: z.string().optional(),
  })
  .strict();

export type LibraryMergeOptions = z.infer<typeof libraryMergeCommandOptionsSchema>;
