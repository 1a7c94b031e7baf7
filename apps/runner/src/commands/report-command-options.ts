import { z } from "zod";

/** The options of `tfgrpo report <run>` (cli-commands/report.ts), checked key for key by command-options.test.ts. */
export const reportCommandOptionsSchema = z
  .object({ db: z.string().optional(), out: z.string().optional() })
  .strict();

export type ReportCommandOptions = z.infer<typeof reportCommandOptionsSchema>;
