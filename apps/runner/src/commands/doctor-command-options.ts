import { z } from "zod";

/** The options of `tfgrpo doctor` (cli-commands/doctor.ts), checked key for key by command-options.test.ts. */
export const doctorCommandOptionsSchema = z
  .object({ db: z.string().optional(), json: z.boolean().optional() })
  .strict();

export type DoctorOptions = z.infer<typeof doctorCommandOptionsSchema>;
