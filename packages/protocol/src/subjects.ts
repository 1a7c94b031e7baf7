import { z } from "zod";
import { defineSubject } from "./bus/subject.js";
import { exposureSchema } from "./kernel/exposure-plan.js";
import { curatorDecide, curatorRestore } from "./online-curator-subjects.js";
import { experienceIdSchema, experienceSchema, experienceStatusSchema } from "./schemas/experience.js";
import { leakageFingerprintsDigestSchema } from "./schemas/leakage-fingerprints.js";
import { gateDecisionSchema, gateRuleSchema } from "./schemas/library-version.js";
import { operationSchema } from "./schemas/operation.js";
import {
  clientTokenFieldSchema,
  getExperiencesReplySchema,
  getExperiencesRequestSchema,
  reportOutcomeReplySchema,
  reportOutcomeRequestSchema,
} from "./schemas/served-library.js";
import { taskSchema } from "./schemas/task.js";
import { rewardGradeSchema, trajectorySchema } from "./schemas/trajectory.js";
import { usageTotalsSchema } from "./schemas/usage.js";

/** A library version as actors read it (immutable, so cacheable by domain + version). */
export const librarySnapshotSchema = z.object({
  domain: z.string(),
  version: z.number().int().nonnegative(),
  experiences: z.array(experienceSchema),
});
export type LibrarySnapshot = z.infer<typeof librarySnapshotSchema>;

/** Names one immutable library version: what a request carries instead of the library itself. */
export const libraryVersionRefSchema = z.object({
  domain: z.string(),
  version: z.number().int().nonnegative(),
});
export type LibraryVersionRef = z.infer<typeof libraryVersionRefSchema>;

/**
 * A served read: the library version a request names (actors, the critic), from whoever owns the store. It serves
 * the version's live entries (`servedLibrarySnapshot`): archived ones are never shown, and they only accumulate over
 * a run, so the reply stays bounded by the library's budget however long the run.
 */
export const libraryGet = defineSubject(
  "tfgrpo.library.get",
  z.object({ domain: z.string(), version: z.union([z.number().int().nonnegative(), z.literal("head")]) }),
  librarySnapshotSchema.nullable(),
);

/** What `tfgrpo.library.get` answers for a stored version: the version without its archived entries. */
export function servedLibrarySnapshot(snapshot: LibrarySnapshot | null): LibrarySnapshot | null {
  if (!snapshot) return null;
  return { ...snapshot, experiences: snapshot.experiences.filter((entry) => entry.status !== "archived") };
}

/**
 * The library service (`tfgrpo serve --role library`): the experiences to show for one task, the actor's selection
 * plus an exploration slot, recorded under a `selectionId` (see @tfgrpo/serving).
 */
export const libraryExperiences = defineSubject(
  "tfgrpo.library.experiences",
  getExperiencesRequestSchema.and(clientTokenFieldSchema),
  getExperiencesReplySchema,
);

/** The library service: the outcome of one selection, stored and credited exactly once per `selectionId`. */
export const libraryOutcome = defineSubject(
  "tfgrpo.library.outcome",
  reportOutcomeRequestSchema.and(clientTokenFieldSchema),
  reportOutcomeReplySchema,
);

/**
 * A served read: stored trajectories by id (the critic reads the groups it is asked about), from whoever owns the
 * store. Requests name trajectories by id rather than carrying them, so a message stays small however long they are.
 */
export const trajectoryGet = defineSubject(
  "tfgrpo.trajectory.get",
  z.object({ ids: z.array(z.string()).min(1) }),
  z.object({
    trajectories: z
      .array(trajectorySchema)
      .describe("The stored trajectories among the ids, in the order asked; an id not stored is left out"),
  }),
);

// --- actor ------------------------------------------------------------------------------------------------------

export const rolloutRequestSchema = z.object({
  runId: z.string(),
  task: taskSchema,
  groupId: z.string(),
  attempt: z.number().int().nonnegative(),
  epoch: z.number().int().nonnegative().optional(),
  step: z.number().int().nonnegative().optional(),
  /** null: no library (the baseline). Otherwise the immutable version to read. */
  library: z
    .object({
      domain: z.string(),
      version: z.number().int().nonnegative(),
      statsRevision: z
        .string()
        .optional()
        .describe(
          "Names the state of the entries' stats: the revision the curator's last credit reply returned. A worker's cached snapshot of another revision is reloaded, so a rollout ranks entries by exactly the stats its request implies.",
        ),
    })
    .nullable(),
  mode: z.enum(["tools", "direct"]).optional(),
  temperature: z.number().min(0).max(2).optional(),
  seed: z.number().int().optional(),
  purpose: z.enum(["train", "validate", "eval", "solve"]).optional(),
  /** Absent: every attempt of the group sees the same entries (the paper's loop). */
  exposure: exposureSchema.optional(),
});
export type RolloutRequest = z.infer<typeof rolloutRequestSchema>;

/**
 * One rollout. Served as jobs from the durable work queue (what the learning loop enqueues: heartbeats while it
 * runs, redelivered if the worker dies) and as request/reply calls (e.g. `solve` against a remote worker).
 */
export const actorRollout = defineSubject("tfgrpo.actor.rollout", rolloutRequestSchema, trajectorySchema, {
  modes: ["job", "request"],
});

// --- critic -----------------------------------------------------------------------------------------------------

export const rewardResultSchema = z.object({
  trajectoryId: z.string(),
  reward: z.number().min(0).max(1),
  grade: rewardGradeSchema,
  extracted: z.string().nullable(),
  method: z.string(),
  reason: z.string().optional(),
  pseudoLabel: z.boolean().optional(),
});
export type RewardResult = z.infer<typeof rewardResultSchema>;

export const criticReward = defineSubject(
  "tfgrpo.critic.reward",
  z.object({
    task: taskSchema,
    groupId: z.string(),
    /** The group's stored trajectories, read by the critic through `tfgrpo.trajectory.get`. */
    trajectoryIds: z.array(z.string()),
    /** Without ground truth the group's majority answer (optionally the judge) is the pseudo-label. */
    groundTruth: z.enum(["required", "none"]).optional(),
  }),
  z.object({
    rewards: z.array(rewardResultSchema),
    pseudoLabel: z.string().nullable().optional(),
    usage: usageTotalsSchema.optional().describe("Model usage of this call (judge), for per-role cost"),
  }),
);

/** An operation as the critic proposes it: from one group, before consolidation. */
export const proposalSchema = z.object({
  proposalId: z.string(),
  op: z.enum(["add", "modify", "delete"]),
  id: experienceIdSchema.optional(),
  text: z.string().optional(),
  /** Where the lesson does not apply (one short clause); becomes the entry's `scope.whenNot`. */
  whenNot: z.string().optional(),
  reason: z.string(),
  groupId: z.string(),
  taskId: z.string(),
});
export type Proposal = z.infer<typeof proposalSchema>;

export const experienceLineSchema = z.object({ id: experienceIdSchema, text: z.string() });
export type ExperienceLine = z.infer<typeof experienceLineSchema>;

export const groupAdviceRequestSchema = z.object({
  runId: z.string(),
  groupId: z.string(),
  task: taskSchema,
  /** The group's rewarded trajectories, read by the critic through `tfgrpo.trajectory.get`. */
  trajectoryIds: z.array(z.string()),
  /** The library the group ran under, read through `tfgrpo.library.get`; null: no library (nothing to edit). */
  library: libraryVersionRefSchema.nullable(),
  /** Set when rewards came from a pseudo-label rather than ground truth. */
  pseudoLabel: z.string().nullable().optional(),
});

export const groupAdviceResultSchema = z.object({
  groupId: z.string(),
  summaries: z.array(z.object({ trajectoryId: z.string(), reward: z.number(), summary: z.string() })),
  proposals: z.array(proposalSchema),
  /** Why the group gave no proposals (homogeneous rewards, unusable model answer...). */
  skipped: z.string().nullable(),
  usage: usageTotalsSchema.optional().describe("Model usage of this call, for per-role cost"),
});
export type GroupAdviceResult = z.infer<typeof groupAdviceResultSchema>;

/** Stage 1 + stage 2 for one group: summaries, then at most 3 proposed operations. */
export const criticAdvantage = defineSubject(
  "tfgrpo.critic.advantage",
  groupAdviceRequestSchema,
  groupAdviceResultSchema,
);

// --- curator ----------------------------------------------------------------------------------------------------

export const curatorConsolidate = defineSubject(
  "tfgrpo.curator.consolidate",
  z.object({
    runId: z.string(),
    domain: z.string(),
    baseVersion: z.number().int().nonnegative().nullable(),
    proposals: z.array(proposalSchema),
    /**
     * The run's training and validation tasks, by reference: a lesson carrying one of their answers or constants is
     * refused. The curator reads the fingerprints from the store, so the request stays the same size whatever the pool.
     */
    leakage: z
      .object({
        fingerprints: leakageFingerprintsDigestSchema.describe(
          "Digest of the run's leakage fingerprints in the store (written once per run)",
        ),
      })
      .optional(),
  }),
  z.object({
    /** The proposed (not yet committed) version, or null when there was nothing to change. */
    version: z.number().int().nonnegative().nullable(),
    operations: z.array(operationSchema),
    notes: z.array(z.string()),
    usage: usageTotalsSchema.optional().describe("Model usage of this call, for per-role cost"),
    /** Proposals refused by the leakage check, with the reason. */
    refused: z.array(z.object({ proposalId: z.string(), reason: z.string() })).optional(),
  }),
);

export const creditObservationSchema = z.object({
  trajectoryId: z.string(),
  reward: z.number(),
  groupMeanReward: z.number(),
  shown: z.array(experienceIdSchema),
  cited: z.array(experienceIdSchema),
  groupId: z
    .string()
    .optional()
    .describe(
      "The rollout's group: contrasts compare the attempts of one group that showed an entry with those that did not",
    ),
  withheld: z
    .array(experienceIdSchema)
    .optional()
    .describe("Entries the group varied and this rollout did not show (its withheld arm)"),
  similarity: z
    .record(experienceIdSchema, z.number())
    .optional()
    .describe(
      "Each varied entry's similarity to the group's task (the trajectory's experienceSimilarity): a contrast counts where the entry applies",
    ),
});

export const curatorCredit = defineSubject(
  "tfgrpo.curator.credit",
  z.object({
    domain: z.string(),
    version: z.number().int().nonnegative().nullable(),
    observations: z.array(creditObservationSchema),
  }),
  z.object({
    updated: z.number().int().nonnegative(),
    statsRevision: z
      .string()
      .describe(
        "Names the entries' stats as the curator left them (a digest of them): rollout requests pass it on, so actors reload a cached snapshot exactly when its stats changed",
      ),
  }),
);

export const curatorGate = defineSubject(
  "tfgrpo.curator.gate",
  z.object({
    domain: z.string(),
    candidateVersion: z.number().int().nonnegative(),
    headVersion: z.number().int().nonnegative().nullable(),
    candidateScores: z.array(z.number()),
    headScores: z.array(z.number()),
    stage: z.enum(["precheck", "full"]),
    samplesPerTask: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Samples behind each task's score (each score is their mean), recorded with the decision"),
    precheck: gateDecisionSchema
      .optional()
      .describe(
        "Stage full: the pre-check decision (numbers and verdict) that led to this full validation, as the pre-check call returned it; stored with the final decision, so any curator worker can decide",
      ),
    rounds: z
      .array(
        z.object({
          candidate: z.array(z.number().min(0).max(1)),
          head: z.array(z.number().min(0).max(1)),
        }),
      )
      .optional()
      .describe(
        "Sequential gate: the validation so far, one paired sample per task and round (rewards, same task order in both); a non-final answer (details.final false) asks for another round",
      ),
    maxRounds: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        "Sequential gate: the rounds the validation budget allows; at this many an open test rejects",
      ),
    fixedSamplesPerTask: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        "Rounds sent to a curator configured with a fixed-sample test (paired-t, none): the samples per task it decides at; fewer get a non-final answer",
      ),
    rule: gateRuleSchema
      .optional()
      .describe(
        "The gate rule the run asked for (tfgrpo learn --gate); absent: the curator's configured gate",
      ),
  }),
  gateDecisionSchema,
);

/** Lifecycle moves on evidence (candidate -> active -> probation -> archived), written as a new version. */
export const curatorLifecycle = defineSubject(
  "tfgrpo.curator.lifecycle",
  z.object({
    domain: z.string(),
    version: z.number().int().nonnegative().optional().describe("Defaults to the head"),
    state: z
      .enum(["proposed", "committed"])
      .optional()
      .describe("State of the version written; default committed"),
    runId: z.string().optional(),
    closing: z
      .boolean()
      .optional()
      .describe(
        "The run's closing look, after its last step's credit: a candidate's harm test drops it with minContrasts groups, not twice that",
      ),
  }),
  z.object({
    /** The version written, or null when nothing moved. */
    version: z.number().int().nonnegative().nullable(),
    transitions: z.array(
      z.object({
        id: experienceIdSchema,
        from: experienceStatusSchema,
        to: experienceStatusSchema,
        reason: z.string(),
      }),
    ),
  }),
);

export const conflictPairSchema = z.object({
  a: z.string(),
  b: z.string(),
  similarity: z.number(),
  source: z.enum(["rule", "model"]),
  reason: z.string(),
});

/** Contradiction scan of a library: conflicting entries resolved on evidence or put in mutual-exclusion groups. */
export const curatorConflicts = defineSubject(
  "tfgrpo.curator.conflicts",
  z.object({
    domain: z.string(),
    version: z.number().int().nonnegative().optional().describe("Defaults to the head"),
    apply: z
      .enum(["proposed", "committed"])
      .optional()
      .describe("Write the result as a version; default: report only"),
    runId: z.string().optional(),
  }),
  z.object({
    version: z.number().int().nonnegative().nullable(),
    operations: z.array(operationSchema),
    notes: z.array(z.string()),
    pairs: z.array(conflictPairSchema),
    usage: usageTotalsSchema.optional(),
  }),
);

/** Imports another domain's entries through consolidation and the conflict check (`tfgrpo library merge`). */
export const curatorMerge = defineSubject(
  "tfgrpo.curator.merge",
  z.object({
    from: z.string().describe("Domain whose head is imported"),
    into: z.string(),
    runId: z.string().optional(),
    commit: z.boolean().optional().describe("Commit the merged version (default) or leave it proposed"),
  }),
  z.object({
    version: z.number().int().nonnegative().nullable(),
    committed: z.boolean(),
    imported: z.number().int().nonnegative(),
    operations: z.array(operationSchema),
    notes: z.array(z.string()),
    usage: usageTotalsSchema.optional(),
  }),
);

// --- the table ----------------------------------------------------------------------------------------------------

/**
 * Every role's endpoints by operation: endpoint `<operation>` of role `<role>` is the subject
 * `tfgrpo.<role>.<operation>`, exported as the constant `<role><Operation>`. `defineRole` takes each endpoint's
 * schemas and serve modes from here, so a role cannot serve a subject under another name.
 */
export const subjectTable = {
  library: { get: libraryGet, experiences: libraryExperiences, outcome: libraryOutcome },
  trajectory: { get: trajectoryGet },
  actor: { rollout: actorRollout },
  critic: { reward: criticReward, advantage: criticAdvantage },
  curator: {
    consolidate: curatorConsolidate,
    credit: curatorCredit,
    gate: curatorGate,
    lifecycle: curatorLifecycle,
    conflicts: curatorConflicts,
    merge: curatorMerge,
    decide: curatorDecide,
    restore: curatorRestore,
  },
} as const;
export type SubjectTable = typeof subjectTable;
