import { usageTotalsSchema } from "@tfgrpo/protocol";
import { z } from "zod";

const version = z.number().int().nonnegative();

/** What one learning step did, in numbers: a row of the end-of-run table and of the report's curves. */
export const stepRecordSchema = z.object({
  epoch: z.number().int().positive(),
  step: z.number().int().positive(),
  tasks: z.number().int().nonnegative(),
  rollouts: z.number().int().nonnegative(),
  trainReward: z.number(),
  groups: z.number().int().nonnegative(),
  skippedGroups: z.number().int().nonnegative(),
  proposals: z.number().int().nonnegative(),
  operations: z.number().int().nonnegative(),
  headBefore: version.nullable(),
  candidateVersion: version.nullable(),
  headAfter: version.nullable(),
  librarySize: z.number().int().nonnegative(),
  libraryStates: z.record(z.string(), z.number().int().nonnegative()),
  candidateScore: z.number().nullable(),
  headScore: z.number().nullable(),
  baselineScore: z.number().nullable(),
  decision: z.enum(["commit", "reject", "no-change"]),
  gateReason: z.string(),
  meanToolCalls: z.number(),
  meanTokens: z.number(),
  usageByRole: z.record(z.string(), usageTotalsSchema),
});
export type StepRecord = z.infer<typeof stepRecordSchema>;
