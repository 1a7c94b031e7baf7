import { z } from "zod";

/**
 * The options of `tfgrpo sim serve | dataset | corpus` (cli-commands/sim.ts), checked key for key by
 * command-options.test.ts. Numbers come as the command line gives them (strings) or as their defaults (numbers): the
 * command checks them as integers when it runs.
 */
const numberOrText = z.union([z.number(), z.string()]);

export const simServeCommandOptionsSchema = z
  .object({
    port: numberOrText,
    host: z.string(),
    seed: numberOrText,
    world: numberOrText.optional(),
    faults: z.string().optional(),
    latency: numberOrText.optional(),
    quiet: z.boolean().optional(),
  })
  .strict();

export type SimServeOptions = z.infer<typeof simServeCommandOptionsSchema>;

export const simDatasetCommandOptionsSchema = z
  .object({ domain: z.string(), split: z.string(), size: numberOrText, seed: numberOrText, out: z.string() })
  .strict();

export type SimDatasetOptions = z.infer<typeof simDatasetCommandOptionsSchema>;

export const simCorpusCommandOptionsSchema = z
  .object({
    seed: numberOrText,
    out: z.string(),
    baseUrl: z.string().optional(),
    folder: z.boolean().optional(),
  })
  .strict();

export type SimCorpusOptions = z.infer<typeof simCorpusCommandOptionsSchema>;
