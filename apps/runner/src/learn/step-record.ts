import { usageTotalsSchema } from "@tfgrpo/protocol";
import { z } from "zod";

const version = z.number().int().nonnegative();

/** What one learning step did, in numbers: a row of the end-of-run table and of the report's curves. */
export const stepRecordSchema = z.object({
  epoch: z.number().int().positive(),
  step: z.number().int().positive(),
  tasks: z.number().int().nonnegative(),
  rollouts: z.number().int().nonnegative(),
  /** Training rollouts that failed on the infrastructure: not rewarded, not compared (absent in older records). */
  infrastructureFailures: z.number().int().nonnegative().optional(),
  /** Validation rollouts of the gate (and baseline) that failed on the infrastructure. */
  validationInfrastructureFailures: z.number().int().nonnegative().optional(),
  /** The mean reward of the task-level training rollouts. */
  trainReward: z.number(),
  groups: z.number().int().nonnegative(),
  skippedGroups: z.number().int().nonnegative(),
  proposals: z.number().int().nonnegative(),
  /** Proposals refused for leakage: a training or validation answer, or a question's constants, in the lesson. */
  leakageRefused: z.number().int().nonnegative().optional(),
  operations: z.number().int().nonnegative(),
  headBefore: version.nullable(),
  candidateVersion: version.nullable(),
  headAfter: version.nullable(),
  librarySize: z.number().int().nonnegative(),
  libraryStates: z.record(z.string(), z.number().int().nonnegative()),
  candidateScore: z.number().nullable(),
  headScore: z.number().nullable(),
  baselineScore: z.number().nullable(),
  decision: z.enum(["commit", "reject", "inconclusive", "no-change"]),
  gateReason: z.string(),
  meanToolCalls: z.number(),
  meanTokens: z.number(),
  /** Library entries a training rollout's prompt showed, on average (absent in older records). */
  meanEntriesShown: z.number().nonnegative().optional(),
  /** Estimated tokens of those entries' lines, on average (the budget they are kept within). */
  meanLessonTokensShown: z.number().nonnegative().optional(),
  usageByRole: z.record(z.string(), usageTotalsSchema),
});
export type StepRecord = z.infer<typeof stepRecordSchema>;
