import { formatZodIssues, proposalSchema, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";

/** What kind of decision the learner made: typed, so nothing downstream reads it from a reason's wording. */
export const onlineDecisionKindSchema = z.enum([
  /** The sequential canary test committed or rejected the canary. */
  "gate",
  /** A promoted head rolled back on probation. */
  "rollback",
  /** A canary no learner can go on with (its version no longer proposed, or its parent no longer the head). */
  "abandoned",
  /** No decision by the canary's deadline, its outcome budget or the end of the session. */
  "inconclusive",
  /** A canary whose parent was rolled back: its comparison is void. */
  "voided",
]);
export type OnlineDecisionKind = z.infer<typeof onlineDecisionKindSchema>;

export const onlineDecisionRecordSchema = z.object({
  at: z.number().int().nonnegative(),
  time: z.string(),
  kind: onlineDecisionKindSchema,
  version: z.number().int().nonnegative(),
  decision: z.string(),
  reason: z.string(),
});
export type OnlineDecisionRecord = z.infer<typeof onlineDecisionRecordSchema>;

const version = z.number().int().nonnegative();

/**
 * The learner's durable state (JSON), written to the store by the lease holder and read back by a learner that
 * restarts or takes over: the cursor, the trigger's window, the canary, the probation of a promoted head.
 */
export const onlineLearnerSnapshotSchema = z.object({
  format: z.literal(1),
  /** The run of the learner that wrote it. */
  runId: z.string(),
  /** The `seq` of the last outcome observed (0: none). */
  cursor: z.number().int().nonnegative(),
  observed: z.number().int().nonnegative(),
  reflections: z.number().int().nonnegative(),
  /** The head as the learner last saw it. */
  head: version.nullable(),
  trigger: z.object({
    window: z.array(z.boolean()),
    sinceLast: z.number().int().nonnegative(),
    pending: z.boolean(),
  }),
  /** A reflection due while a canary ran, waiting for its decision. */
  deferred: z
    .object({
      reason: z.enum(["batch", "success-drop"]),
      sinceLast: z.number().int().nonnegative(),
      windowRate: z.number().nullable(),
      windowSize: z.number().int().nonnegative(),
    })
    .nullable(),
  /**
   * Proposals of reflections made while the canary ran, for the first reflection after its decision (absent in the
   * states of earlier learners: none).
   */
  held: z.array(proposalSchema).default([]),
  canary: z
    .object({
      version,
      parent: version.nullable(),
      /** The share it serves now (the sequential test's fastest, within the settings' bounds). */
      share: z.number().gt(0).max(1),
      /** The cursor when it started: its outcomes and the head's since are the ones after it. */
      startCursor: z.number().int().nonnegative(),
      startedAt: z.string(),
      deadlineAt: z.string(),
      outcomes: z.number().int().nonnegative(),
      headOutcomes: z.number().int().nonnegative(),
    })
    .nullable(),
  probation: z
    .object({
      previous: version.nullable(),
      versions: z.array(version),
      reference: z.array(z.boolean()),
      served: z.array(z.boolean()),
    })
    .nullable(),
  /** The last decisions (gates, rollbacks, abandoned, voided and inconclusive canaries), newest last. */
  decisions: z.array(onlineDecisionRecordSchema),
});
export type OnlineLearnerSnapshot = z.infer<typeof onlineLearnerSnapshotSchema>;

/**
 * The stored state as a snapshot: null when there is none yet; a state of another format (a newer learner's) or a
 * malformed one is refused with `invalid_input` naming the field, never read half-way.
 */
export function parseLearnerSnapshot(
  state: Record<string, unknown> | null,
  where = "the stored online learner state",
): OnlineLearnerSnapshot | null {
  if (state === null) return null;
  const parsed = onlineLearnerSnapshotSchema.safeParse(state);
  if (!parsed.success)
    throw new TfgrpoError("invalid_input", `${where}: ${formatZodIssues(parsed.error.issues)}`, {
      details: { where },
    });
  return parsed.data;
}

/** The part of the stored state a serving process routes by (`createStoredCanaryRouter`): only the canary out. */
const storedCanarySchema = z.object({
  format: z.literal(1),
  canary: z.object({ version, parent: version.nullable(), share: z.number().gt(0).max(1) }).nullable(),
});

/** The stored canary (null: none, or no state yet), zod-checked like the whole snapshot. */
export function parseStoredCanary(
  state: Record<string, unknown> | null,
): { version: number; parent: number | null; share: number } | null {
  if (state === null) return null;
  const parsed = storedCanarySchema.safeParse(state);
  if (!parsed.success)
    throw new TfgrpoError(
      "invalid_input",
      `the stored online learner state: ${formatZodIssues(parsed.error.issues)}`,
      { details: { where: "online_learners.state" } },
    );
  return parsed.data.canary;
}
