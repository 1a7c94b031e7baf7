import { z } from "zod";

/**
 * The options of `tfgrpo db copy` and `db prune`: the schemas the commander declarations (cli-commands/db.ts) are
 * checked against, key for key (command-options.test.ts), and that the parsed options go through before they run.
 */
export const dbCopyCommandOptionsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    domain: z.array(z.string()).optional(),
    /** Only the libraries (no runs, trajectories, selections or outcomes). */
    librariesOnly: z.boolean().optional(),
  })
  .strict();

export type DbCopyOptions = z.infer<typeof dbCopyCommandOptionsSchema>;

export const dbPruneCommandOptionsSchema = z
  .object({
    db: z.string(),
    dryRun: z.boolean().optional(),
    /** Settings over TFGRPO_RETENTION's and the defaults. */
    reportDeadlineMs: z.number().positive().optional(),
    outcomeMaxAgeDays: z.number().positive().optional(),
    maxOutcomesPerDomain: z.number().positive().optional(),
    keepLatestOutcomes: z.number().positive().optional(),
    trajectoryMaxAgeDays: z.number().positive().optional(),
    unreportedMaxAgeDays: z.number().positive().optional(),
  })
  .strict();

export type DbPruneOptions = z.infer<typeof dbPruneCommandOptionsSchema>;
