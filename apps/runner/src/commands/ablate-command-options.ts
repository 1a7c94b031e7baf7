import { z } from "zod";

/** The options of `tfgrpo ablate` (cli-commands/ablate.ts), checked key for key by command-options.test.ts. */
export const ablateCommandOptionsSchema = z
  .object({
    sim: z.boolean().optional(),
    config: z.string().optional(),
    domain: z.string(),
    /** Where a new ablation workspace is created. */
    dir: z.string(),
    /** An earlier ablation workspace to continue (finished runs are reused, unfinished ones resumed). */
    resume: z.string().optional(),
    train: z.string().optional(),
    val: z.string().optional(),
    test: z.string().optional(),
    trainSize: z.number().int().positive(),
    valSize: z.number().int().positive(),
    testSize: z.number().int().positive(),
    seed: z.number().int().nonnegative(),
    epochs: z.number().int().positive(),
    groupSize: z.number().int().positive(),
    batchSize: z.number().int().positive().optional(),
    k: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    mode: z.enum(["tools", "direct"]),
    directLessons: z.number().int().positive().optional(),
    /**
     * --sim: chance the policy falls into a pitfall its prompt does not address (the base model's weakness); default
     * `paperSimFall`, a policy about as strong without a library as the paper's model.
     */
    simFall: z.number().min(0).max(1).optional(),
    /**
     * Placebo controls of the full run's library beside the settings (keyword stubs, shuffled lessons, another domain's
     * lessons): default true; false with `--no-controls`.
     */
    controls: z.boolean().optional(),
  })
  .strict();

export type AblateOptions = z.infer<typeof ablateCommandOptionsSchema>;
