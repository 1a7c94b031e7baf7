import {
  defaultDecisionThresholds,
  defaultLibraryBudget,
  defaultUtilityOptions,
  formatZodIssues,
  TfgrpoError,
  utilityOptionsSchema,
} from "@tfgrpo/protocol";
import { z } from "zod";
import { defaultContrastRelevance } from "./credit-deltas.js";

/** Deep-partial input form of a zod object schema whose fields all have defaults. */
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

const gateSchema = z.strictObject({
  mode: z
    .enum(["better-by-margin", "not-worse-within-tolerance", "always"])
    .default("better-by-margin")
    .describe(
      "better-by-margin: candidate mean - head mean >= margin; not-worse: >= -tolerance; always: no gate",
    ),
  /** 0 reproduces the paper's rule: revert only when the new library does worse. */
  margin: z.number().min(0).max(1).default(0),
  tolerance: z.number().min(0).max(1).default(0.02),
  precheck: z
    .object({
      /** Judge pre-check requests (the runner decides whether to make one); false lets every pre-check pass. */
      enabled: z.boolean().default(true),
      /** Held-out tasks the runner uses for the cheap minibatch pre-check. */
      tasks: z.number().int().positive().default(8),
      /** The pre-check only filters out clear losers: it fails when the candidate is worse by more than this. */
      tolerance: z.number().min(0).max(1).default(0.1),
    })
    .default({ enabled: true, tasks: 8, tolerance: 0.1 }),
  test: z
    .strictObject({
      /**
       * sequential: validation in rounds (one paired sample per task each), decided by two anytime-valid tests by
       * betting as soon as the evidence settles (docs/curator.md); paired-t: besides the mode's rule on the estimate,
       * a one-sided paired t test over tasks at one fixed sample must rule out a loss of `harm` at level `alpha`; in
       * both a tie keeps the head in better-by-margin; none: the mode's rule on the means only (the paper's rule,
       * every tie commits).
       */
      kind: z.enum(["sequential", "paired-t", "none"]).default("sequential"),
      /** Chance of committing a candidate that is `harm` worse than the head (the test's level, one-sided). */
      alpha: z.number().gt(0).lt(0.5).default(0.05),
      /** The loss (mean score, 0..1) the test guards against. */
      harm: z.number().min(0).max(1).default(0.1),
      /** sequential: the reject test's level (a candidate `gain` better is rejected by it at most this often). */
      beta: z.number().gt(0).lt(1).default(0.2),
      /** sequential: the gain (mean score, 0..1) the reject test rules out. */
      gain: z.number().min(0).max(1).default(0.1),
    })
    .default({ kind: "sequential", alpha: 0.05, harm: 0.1, beta: 0.2, gain: 0.1 }),
});

const lifecycleSchema = z.strictObject({
  /** Groups with both arms (shown and withheld) an entry's contrast needs before it decides a move. */
  minContrasts: z.number().int().positive().default(4),
  /** Without any contrast (exposure off): rollouts an entry must have been shown in before its mean delta decides. */
  minEvidence: z.number().int().positive().default(4),
  /** Safe (a candidate may become active): the contrast's lower bound is at least minus this. */
  promoteMargin: z.number().min(0).default(0.05),
  /** Harmful: the contrast's upper bound is below minus this. */
  harmMargin: z.number().min(0).default(0),
  /**
   * Error level of the contrast's confidence sequence (each side, over every look together): the chance that an entry
   * with no effect is ever called harmful, or one at the harm threshold ever called safe.
   */
  alpha: z.number().gt(0).lt(0.5).default(defaultDecisionThresholds.alpha),
  /**
   * Level of the one-sided sequential harm test that demotes an active entry to probation (reversible: still varied
   * there, back once safe): the chance, over every look together, that an entry without harm is ever demoted by it.
   */
  demoteAlpha: z.number().gt(0).lt(0.5).default(defaultDecisionThresholds.demoteAlpha),
  /**
   * Level of the same harm test that drops a candidate (with twice `minContrasts` groups): an archive, final for the
   * automatic policy, so held stricter than a demotion.
   */
  dropAlpha: z.number().gt(0).lt(0.5).default(defaultDecisionThresholds.dropAlpha),
  /** The demotion test's harmful alternative: a mean contrast this far below `-harmMargin` (mixed with twice it). */
  harmEffect: z.number().gt(0).max(1).default(defaultDecisionThresholds.harmEffect),
  /** Level at which harm counts as confirmed (archive, final for the automatic policy). */
  confirmAlpha: z.number().gt(0).lt(0.5).default(defaultDecisionThresholds.confirmAlpha),
  /** Groups at which the sequence's bounds are tightest (the normal mixture's spread). */
  horizon: z.number().positive().default(defaultDecisionThresholds.horizon),
  /** Without any contrast (exposure off): harmful when the mean delta is below minus this (the paper-loop rule). */
  meanDeltaHarmMargin: z.number().min(0).default(0.1),
  /** Versions without being shown after which an entry counts as never selected. */
  staleAfterVersions: z.number().int().positive().default(20),
  /** Versions an entry stays on probation before a still-bad entry is archived. */
  probationVersions: z.number().int().positive().default(10),
  /** While the live set is over the budget, at least this share of the entry budget goes to probation each time. */
  pruneFraction: z.number().min(0).max(1).default(0.1),
});

const duplicatesSchema = z.strictObject({
  /** Cosine similarity at or above which two texts are near duplicates. */
  nearDuplicateSimilarity: z.number().min(0).max(1).default(0.9),
});

const consolidationSchema = z.strictObject({
  /**
   * Suggestions at least this similar (cosine; a group's members also at least 3/4 of it on average) are put in one
   * consolidation prompt, and chunk results this similar are reconciled in one more call. Well below the duplicate
   * threshold: it gathers paraphrases of one idea, not copies.
   */
  groupSimilarity: z.number().min(0).max(1).default(0.4),
});

const conflictsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Pairs at least this similar (same topic) are conflict candidates for the model check. */
  topicSimilarity: z.number().min(0).max(1).default(0.5),
  /** Opposite phrasings found by the rule scan are conflicts at topicSimilarity; from this similarity up they are
   * checked by the model first. */
  ruleScanMinSimilarity: z.number().min(0).max(1).default(0.3),
  /** Nearest neighbours per entry considered as conflict candidates. */
  neighbours: z.number().int().positive().default(5),
  /** Model conflict checks per call; the most similar pairs (new entries first) are checked first. */
  maxModelChecks: z.number().int().nonnegative().default(40),
  /** A conflict is resolved (the worse entry archived) only when the better one's contrast leads by this much (and
   * by more than the two intervals' uncertainty). */
  resolveMargin: z.number().min(0).default(0.1),
});

export const curatorConfigSchema = z.strictObject({
  wordLimit: z.number().int().positive().default(32),
  /** Lessons with fewer content words that do not open with their condition are vague and dropped (0: keep all). */
  minContentWords: z.number().int().nonnegative().default(4),
  /** No consolidation prompt exceeds this many (estimated) tokens: larger batches are chunked. */
  maxPromptTokens: z.number().int().positive().default(6000),
  /** Library entries shown as context per proposal when the library does not fit in one prompt. */
  contextNeighbours: z.number().int().nonnegative().default(4),
  /** The active set's budget: the same as the actor's experience block (`defaultLibraryBudget`). */
  activeBudget: z
    .object({
      maxEntries: z.number().int().positive().default(defaultLibraryBudget.maxEntries),
      maxTokens: z.number().int().positive().default(defaultLibraryBudget.maxTokens),
    })
    .default({ ...defaultLibraryBudget }),
  gate: gateSchema.default(gateSchema.parse({})),
  /** The entry utility formula (shared with the actor's retrieval: keep both settings equal). */
  utility: utilityOptionsSchema.default(defaultUtilityOptions),
  /** Which entries of a rollout earn its credit: every entry shown, or only those the actor cited. */
  creditAttribution: z.enum(["shown", "cited"]).default("shown"),
  /**
   * Where a contrast counts: a group adds to an entry's contrast only when the entry's similarity to the group's task
   * is at least this share of its highest similarity over the batch's groups (0: every group it was varied in). A
   * lesson varied on a task it does not address adds a zero-mean difference that dilutes what it does where it applies.
   */
  contrastRelevance: z.number().min(0).max(1).default(defaultContrastRelevance),
  lifecycle: lifecycleSchema.default(lifecycleSchema.parse({})),
  duplicates: duplicatesSchema.default(duplicatesSchema.parse({})),
  consolidation: consolidationSchema.default(consolidationSchema.parse({})),
  conflicts: conflictsSchema.default(conflictsSchema.parse({})),
  /** Seed of the random hyperplanes of the similarity index (deterministic by default). */
  indexSeed: z.number().int().default(17),
});

export type CuratorConfig = z.infer<typeof curatorConfigSchema>;
export type CuratorConfigInput = DeepPartial<CuratorConfig>;

export function resolveCuratorConfig(input: CuratorConfigInput = {}): CuratorConfig {
  const parsed = curatorConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_config", `curator config: ${formatZodIssues(parsed.error.issues)}`, {
      details: { issues: parsed.error.issues.map((issue) => issue.path.join(".")) },
    });
  }
  return parsed.data;
}
