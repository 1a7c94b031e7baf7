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
      /**
       * Largest share of traffic a canary may serve. Within it the learner serves the share that tests fastest
       * (Neyman allocation: arms in proportion to their outcomes' spread, which is an even split near 50% success).
       */
      canaryShare: z.number().gt(0).max(1).default(0.5),
      /** Smallest share a canary serves (Neyman allocation is clamped to [minCanaryShare, canaryShare]). */
      minCanaryShare: z.number().gt(0).max(1).default(0.2),
      /** Canary outcomes before the sequential test first looks (and head outcomes alike). */
      minCanaryOutcomes: z.number().int().positive().default(10),
      /**
       * Most canary outcomes a canary gets: a sequential test still undecided here ends inconclusive (rejected, the
       * evidence stored), so one candidate cannot block learning forever.
       */
      canaryOutcomes: z.number().int().positive().default(400),
      /**
       * Canary outcomes after which a reflection that falls due stops a canary still undecided that leans no better
       * than the head (futility: decided inconclusive, its evidence stored) instead of holding its proposals for
       * after the decision. A candidate near no difference would otherwise hold the learner back for the hundreds
       * of outcomes its test needs there. A canary leaning better runs on to its decision.
       */
      futilityAfter: z.number().int().positive().default(30),
      /** Promoting a candidate `harm` worse than the head happens at most this often (the sequential test's alpha). */
      alpha: z.number().gt(0).lt(0.5).default(0.05),
      /** Rejecting a candidate `harm` better than the head happens at most this often (the test's beta). */
      beta: z.number().gt(0).lt(0.5).default(0.2),
      /** The effect the canary's test tells apart: +harm (commit) against -harm (reject), in success rate. */
      harm: z.number().gt(0).max(1).default(0.1),
      /** Bits of the task-embedding hash that puts tasks in strata (2^bits strata of similar tasks). */
      strataBits: z.number().int().min(0).max(6).default(2),
      /** Roll a promoted head back when it is worse than its predecessor by more than this, with confidence. */
      rollbackMargin: z.number().min(0).max(1).default(0),
      /** Outcomes per window: the probation rule judges a promoted head each time it completes one. */
      rollbackWindow: z.number().int().positive().default(20),
      /** Reference outcomes (the predecessor's) needed before any probation judgement. */
      minReference: z.number().int().positive().default(30),
      /** Windows a promoted version stays on probation (rollback watch) after its promotion. */
      probationWindows: z.number().int().positive().default(3),
      /**
       * A canary without a decision this long after it started is decided as inconclusive (rejected, the reason
       * stored), so clients that never report cannot block later reflections.
       */
      canaryDeadlineSeconds: z.number().positive().default(3600),
    })
    .default({
      canaryShare: 0.5,
      minCanaryShare: 0.2,
      minCanaryOutcomes: 10,
      canaryOutcomes: 400,
      futilityAfter: 30,
      alpha: 0.05,
      beta: 0.2,
      harm: 0.1,
      strataBits: 2,
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
