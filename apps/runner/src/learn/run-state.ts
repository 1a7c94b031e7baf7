import {
  formatZodIssues,
  gateDecisionSchema,
  groupAdviceResultSchema,
  proposalSchema,
  TfgrpoError,
} from "@tfgrpo/protocol";
import type { RunStore } from "@tfgrpo/store";
import { z } from "zod";
import { lessonCostsSchema } from "./lesson-costs.js";
import { stepRecordSchema } from "./step-record.js";
import type { StoredEvaluation } from "./stored-evaluation.js";

/**
 * What a run keeps in the store's run-state area, family by family: each entry is a key and the schema its value
 * must pass, on write and on read. The keys are the ones runs wrote before the state was typed, so an older run
 * still resumes. Large payloads (trajectories, library versions) live in their own tables; these are the small
 * facts that make every node of the learning graph idempotent.
 */
export interface RunStateEntry<T> {
  readonly key: string;
  readonly schema: z.ZodType<T>;
}

/** All entries of one family: `family(...)` names one, `prefix` finds them all. */
export type RunStateFamily<A extends unknown[], T> = ((...args: A) => RunStateEntry<T>) & {
  readonly prefix: string;
  readonly schema: z.ZodType<T>;
};

function family<A extends unknown[], T>(
  prefix: string,
  suffix: (...args: A) => string,
  schema: z.ZodType<T>,
): RunStateFamily<A, T> {
  return Object.assign((...args: A) => ({ key: `${prefix}${suffix(...args)}`, schema }), { prefix, schema });
}

const version = z.number().int().nonnegative();
const count = z.number().int().nonnegative();

/**
 * Step N's rollouts were credited to the entries they showed, leaving the stats at the curator's revision (absent in
 * runs credited before the curator named revisions).
 */
export const creditMarkSchema = z.object({ observations: count, statsRevision: z.string().optional() });
/** The version the lifecycle moves of step N wrote (null: nothing moved). */
export const lifecycleOutcomeSchema = z.object({ version: version.nullable() });
/** The candidate version the curator made of step N's proposals (null: nothing to change). */
export const consolidationOutcomeSchema = z.object({
  version: version.nullable(),
  operations: count,
  /** Proposals the curator refused for leakage (a task's answer or constants in the lesson). */
  leaked: count.optional(),
});
/** The run's closing look: the lifecycle moves after its last step, and the version they wrote (null: none). */
export const closingOutcomeSchema = z.object({
  headBefore: version.nullable(),
  version: version.nullable(),
  transitions: z.array(z.object({ id: z.string(), from: z.string(), to: z.string(), reason: z.string() })),
});
export type ClosingOutcome = z.infer<typeof closingOutcomeSchema>;
/** The gate's decision on step N's candidate, with the validation scores it was made on. */
export const gateOutcomeSchema = z.object({
  gate: gateDecisionSchema,
  candidateScore: z.number(),
  headScore: z.number(),
  /** Validation rollouts that failed on the infrastructure (absent in runs gated before they were counted). */
  infrastructureFailures: count.optional(),
});
/** The one committed version of a direct-experiences run. */
export const directExperiencesResultSchema = z.object({ version, experiences: z.array(z.string()) });

const interval = z.object({ estimate: z.number(), low: z.number(), high: z.number(), level: z.number() });
const storedEvaluationSchema: z.ZodType<StoredEvaluation> = z.object({
  id: z.string(),
  title: z.string(),
  data: z.string().nullable(),
  k: count,
  rows: z.array(
    z.object({
      label: z.string(),
      tasks: count,
      k: count,
      meanAtK: interval,
      passAtK: interval,
      passHatK: z.array(z.object({ k: count, value: interval })).optional(),
      meanToolCalls: z.number(),
      meanTurns: z.number(),
      toolErrorRate: z.number(),
      adherence: z.number().nullable(),
      tokensPerTask: z.number(),
      costPerTask: z.number(),
      cacheHitRate: z.number().nullable().optional(),
      deltaVsReference: interval.nullable(),
      infrastructureFailures: count.optional(),
      control: z
        .object({
          kind: z.enum(["keyword-stubs", "shuffled", "other-domain"]),
          of: z.string().nullable(),
          source: z.string(),
        })
        .optional(),
    }),
  ),
  groups: z
    .object({
      field: z.string(),
      groups: z.array(
        z.object({
          value: z.string(),
          tasks: count,
          rows: z.array(
            z.object({
              label: z.string(),
              tasks: count,
              meanAtK: interval,
              deltaVsReference: interval.nullable(),
            }),
          ),
        }),
      ),
    })
    .optional(),
  createdAt: z.string(),
});

export const runStateKeys = {
  /** Without ground truth: the critic's majority-vote answer a group was rewarded against. */
  pseudoLabel: family("pseudo-label/", (groupId: string) => groupId, z.string()),
  credit: family("credit/s", (step: number) => String(step), creditMarkSchema),
  lifecycle: family("lifecycle/s", (step: number) => String(step), lifecycleOutcomeSchema),
  /** The lifecycle's closing look after the last step (`nodes/close-run.ts`). */
  closing: family("closing/", () => "lifecycle", closingOutcomeSchema),
  /** The critic's summaries and proposals for one group (or why it gave none). */
  advice: family("advice/", (groupId: string) => groupId, groupAdviceResultSchema),
  /** Every proposal of step N, in group order: the curator's input. */
  proposals: family("proposals/s", (step: number) => String(step), z.array(proposalSchema)),
  consolidation: family("consolidate/s", (step: number) => String(step), consolidationOutcomeSchema),
  gate: family("gate/s", (step: number) => String(step), gateOutcomeSchema),
  /** The finished step's numbers (the end-of-run table and the report read them). */
  step: family("step/", (step: number) => String(step), stepRecordSchema),
  /** What step N's learning cost and which entries it went to (or that it was dropped). */
  lessonCosts: family("lesson-costs/s", (step: number) => String(step), lessonCostsSchema),
  /**
   * Which of step N's tasks failed (group mean reward below 1) and which did not: the batches' failure share; and
   * which gave a group of equal rewards (no mixed group, so no reflection and no nonzero contrast: `uniform`, absent
   * in runs stored before it).
   */
  batchOutcomes: family(
    "batch-outcomes/s",
    (step: number) => String(step),
    z.object({
      failed: z.array(z.string()),
      passed: z.array(z.string()),
      uniform: z.array(z.string()).optional(),
    }),
  ),
  /** The last step whose trajectories were compacted (`--compact-trajectories-after`). */
  compaction: family("compacted-trajectories/", () => "through", z.object({ throughStep: count })),
  /** An evaluation table (`eval`, `ablate`, the demo) as the report shows it. */
  evaluation: family("evaluation/", (id: string) => id, storedEvaluationSchema),
  directExperiences: family("direct-experiences/", () => "result", directExperiencesResultSchema),
} as const;

/** The run-state area of one run, read and written only through typed entries. */
export interface RunState {
  /** undefined when the entry was never written. */
  get<T>(entry: RunStateEntry<T>): Promise<T | undefined>;
  put<T>(entry: RunStateEntry<T>, value: T): Promise<void>;
  /** Every entry of a family, in key order. */
  list<T>(family: RunStateFamily<never, T>): Promise<T[]>;
}

export type RunStateStore = Pick<RunStore, "getRunState" | "putRunState" | "listRunStateKeys">;

export function runStateOf(store: RunStateStore, runId: string): RunState {
  const check = <T>(key: string, schema: z.ZodType<T>, value: unknown, action: "read" | "write"): T => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new TfgrpoError(
      "invalid_input",
      `run ${runId}: ${action === "read" ? "stored" : "cannot store"} run state "${key}": ${formatZodIssues(parsed.error.issues)}`,
      {
        details: {
          runId,
          key,
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String),
            message: issue.message,
          })),
        },
      },
    );
  };
  const read = async <T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> => {
    const value = await store.getRunState(runId, key);
    return value === undefined ? undefined : check(key, schema, value, "read");
  };
  return {
    get: (entry) => read(entry.key, entry.schema),
    async put(entry, value) {
      await store.putRunState(runId, entry.key, check(entry.key, entry.schema, value, "write"));
    },
    async list(family) {
      const keys = (await store.listRunStateKeys(runId)).filter((key) => key.startsWith(family.prefix));
      const values = [];
      for (const key of keys) {
        const value = await read(key, family.schema);
        if (value !== undefined) values.push(value);
      }
      return values;
    },
  };
}
