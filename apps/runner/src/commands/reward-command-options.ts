import { z } from "zod";

/** The options of `tfgrpo reward <method>` (cli-commands/reward.ts), checked key for key by command-options.test.ts. */
export const rewardCommandOptionsSchema = z
  .object({ input: z.string().optional(), module: z.string().optional(), partialCredit: z.boolean() })
  .strict();

export type RewardCommandOptions = z.infer<typeof rewardCommandOptionsSchema>;
