import { z } from "zod";
import { domainSchema } from "./task.js";

export const experienceIdSchema = z
  .string()
  .regex(/^G(0|[1-9][0-9]*)$/, "experience ids look like G0, G1, G17")
  .describe("Stable experience id, e.g. G3");

export const experienceStatusSchema = z.enum(["candidate", "active", "probation", "archived"]);
export type ExperienceStatus = z.infer<typeof experienceStatusSchema>;

/**
 * An entry's controlled contrast: one difference per group (offline: the attempts of one task; online: similar
 * requests) in which some attempts showed the entry and others had it withheld, as mean reward with it minus mean
 * reward without it. Counters, so batches add up in any order; `contrastEstimate` turns them into an interval.
 */
export const experienceContrastSchema = z.object({
  n: z.number().int().nonnegative().describe("Groups with both arms (shown and withheld)"),
  sum: z.number().describe("Sum of the groups' differences (mean reward shown - mean reward withheld)"),
  sumSquares: z.number().nonnegative().describe("Sum of the squared differences"),
});
export type ExperienceContrast = z.infer<typeof experienceContrastSchema>;

export const experienceStatsSchema = z.object({
  shown: z.number().int().nonnegative().describe("Rollouts whose prompt showed this entry"),
  success: z.number().nonnegative().describe("Sum of rewards of those rollouts"),
  sumDelta: z.number().describe("Sum of (rollout reward - mean reward of its group) when shown"),
  lastUsedVersion: z.number().int().nonnegative().nullable(),
  /** Absent on stats recorded before contrasts existed (and on imports): no contrast yet. */
  contrast: experienceContrastSchema.optional(),
});
export type ExperienceStats = z.infer<typeof experienceStatsSchema>;

export function emptyExperienceStats(): ExperienceStats {
  return { shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null };
}

export const experienceScopeSchema = z.object({
  when: z.string().optional().describe("When the entry applies"),
  whenNot: z.string().optional().describe("When it does not apply"),
});
export type ExperienceScope = z.infer<typeof experienceScopeSchema>;

export const lifecycleEventSchema = z.object({
  at: z.string().describe("ISO time"),
  version: z.number().int().nonnegative(),
  from: experienceStatusSchema.nullable(),
  to: experienceStatusSchema,
  reason: z.string(),
});
export type LifecycleEvent = z.infer<typeof lifecycleEventSchema>;

export const experienceSchema = z.object({
  id: experienceIdSchema,
  domain: domainSchema,
  text: z.string().min(1),
  status: experienceStatusSchema,
  scope: experienceScopeSchema.optional(),
  /** Entries sharing a conflict group are mutually exclusive: the actor shows at most one of them. */
  conflictGroup: z.string().optional(),
  stats: experienceStatsSchema,
  provenance: z.object({
    runId: z.string().nullable(),
    version: z.number().int().nonnegative().describe("Library version that created the entry"),
    fromOps: z.array(z.string()).describe("Ids or reasons of the operations it came from"),
  }),
  history: z.array(lifecycleEventSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Experience = z.infer<typeof experienceSchema>;
