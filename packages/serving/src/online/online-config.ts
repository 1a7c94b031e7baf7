import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";

/**
 * Settings of online (just-in-time) learning, seed 002 §3.2 and §5: when to reflect, how to group live outcomes,
 * how many rules the critic may write, and how a new version is rolled out (canary share, gate, rollback).
 */
export const onlineConfigSchema = z.strictObject({
  trigger: z
    .strictObject({
      /** Reflect every B reported outcomes (seed 002 suggests 20–30; 50 for very uniform traffic). */
      batchSize: z.number().int().positive().default(30),
      /** The sliding window the success-drop rule watches (outcomes). */
      window: z.number().int().positive().default(20),
      /** Reflect at once when the window's success rate is below this (the window must be full). */
      dropBelow: z.number().min(0).max(1).default(0.5),
      /** Outcomes that must arrive after a reflection before the drop rule may fire again. */
      cooldown: z.number().int().nonnegative().default(10),
    })
    .default({ batchSize: 30, window: 20, dropBelow: 0.5, cooldown: 10 }),
  groups: z
    .strictObject({
      /** Recent outcomes a reflection draws its neighbourhoods from. */
      pool: z.number().int().positive().default(80),
      /** Neighbours per group (besides the failure it is centred on). */
      neighbours: z.number().int().positive().default(5),
      /** Least cosine similarity of a neighbour's task to the centre's. */
      minSimilarity: z.number().min(-1).max(1).default(0.2),
      /** Groups (critic calls) per reflection. */
      maxGroups: z.number().int().positive().default(4),
    })
    .default({ pool: 80, neighbours: 5, minSimilarity: 0.2, maxGroups: 4 }),
  critic: z
    .strictObject({
      /** At most N rules per reflection call (seed 002 §3.2: 8). */
      maxRules: z.number().int().positive().default(8),
      /** Longest rule, in words. */
      maxWords: z.number().int().positive().default(32),
    })
    .default({ maxRules: 8, maxWords: 32 }),
  rollout: z
    .strictObject({
      /** Share of traffic a new version serves while it is a canary. */
      canaryShare: z.number().gt(0).max(1).default(0.3),
      /** Canary outcomes the gate waits for before it decides (the budget behind its error rates). */
      canaryOutcomes: z.number().int().positive().default(80),
      /** Gate rule (the offline gate's): promote when canary mean - head mean >= -tolerance and the test holds. */
      tolerance: z.number().min(0).max(1).default(0.05),
      /** One-sided level of the canary gate's and the rollback's tests (the rollback splits it over its looks). */
      alpha: z.number().gt(0).lt(0.5).default(0.05),
      /** The loss the canary gate's test must rule out before a promotion. */
      harm: z.number().min(0).max(1).default(0.1),
      /** Roll back when the served version is worse than the previous one by more than this, with confidence. */
      rollbackMargin: z.number().min(0).max(1).default(0),
      /** Outcomes per window: the rollback rule judges a version each time it completes one. */
      rollbackWindow: z.number().int().positive().default(20),
      /** Reference outcomes (the previous version's) needed before any rollback judgement. */
      minReference: z.number().int().positive().default(30),
      /** Windows a promoted version stays on probation (rollback watch) after its promotion. */
      probationWindows: z.number().int().positive().default(3),
      /**
       * A canary without enough reports this long after it started is decided as inconclusive (rejected, the reason
       * stored), so clients that never report cannot block later reflections.
       */
      canaryDeadlineSeconds: z.number().positive().default(3600),
    })
    .default({
      canaryShare: 0.3,
      canaryOutcomes: 80,
      tolerance: 0.05,
      alpha: 0.05,
      harm: 0.1,
      rollbackMargin: 0,
      rollbackWindow: 20,
      minReference: 30,
      probationWindows: 3,
      canaryDeadlineSeconds: 3600,
    }),
});
export type OnlineConfig = z.infer<typeof onlineConfigSchema>;

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
export type OnlineConfigInput = DeepPartial<OnlineConfig>;

/** Defaults filled in; a bad field is an `invalid_input` naming it (`where` says which file or flag). */
export function resolveOnlineConfig(input: OnlineConfigInput = {}, where = "online config"): OnlineConfig {
  const parsed = onlineConfigSchema.safeParse(input);
  if (!parsed.success)
    throw new TfgrpoError("invalid_input", `${where}: ${formatZodIssues(parsed.error.issues)}`, {
      details: { where },
    });
  return parsed.data;
}
