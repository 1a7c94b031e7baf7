import { z } from "zod";
import type { ExperienceContrast, ExperienceStatus } from "../schemas/experience.js";
import { contrastSequence, defaultSequenceOptions } from "./contrast-sequence.js";
import { harmTest } from "./harm-test.js";
import { normalCdf } from "./student-t.js";

/*
 * Where exposure is worth its cost (issue 32): the value of varying an entry is the value of the decision its
 * contrast feeds. One function, used by the offline schedule (the actor's `applyExposure`) and by the online
 * exploration slot (`varyExposure` in @tfgrpo/serving), so both spend their contrasts on the same entries.
 */

export const decisionThresholdsSchema = z.object({
  minContrasts: z.number().int().positive().default(4).describe("Groups before any bound decides"),
  harmMargin: z.number().min(0).default(0).describe("Harmful: the mean contrast is below minus this"),
  promoteMargin: z.number().min(0).default(0.05).describe("Safe: the lower bound is at least minus this"),
  alpha: z
    .number()
    .gt(0)
    .lt(0.5)
    .default(0.1)
    .describe(
      "Nominal error level of the confidence sequence, each side, over all looks (measured: about 3% for an entry without effect)",
    ),
  demoteAlpha: z
    .number()
    .gt(0)
    .lt(0.5)
    .default(0.25)
    .describe(
      "Level of the sequential harm test that demotes an active entry to probation, over all looks: loose, as a demotion is undone once the entry is safe again (measured: about 16% for an entry without effect, 2.5% for one 10 points helpful)",
    ),
  dropAlpha: z
    .number()
    .gt(0)
    .lt(0.5)
    .default(0.1)
    .describe(
      "Level of the same harm test that drops a candidate (an archive, final for the automatic policy), over all looks",
    ),
  harmEffect: z
    .number()
    .gt(0)
    .default(0.15)
    .describe(
      "The harmful alternative of the demotion test: a mean contrast this far below -harmMargin (mixed with twice it)",
    ),
  confirmAlpha: z
    .number()
    .gt(0)
    .lt(0.5)
    .default(0.02)
    .describe("Level at which harm is confirmed (an archive, final for the automatic policy)"),
  horizon: z.number().positive().default(6).describe("The sequence's tightest n"),
});
export type DecisionThresholds = z.infer<typeof decisionThresholdsSchema>;

export const defaultDecisionThresholds: DecisionThresholds = decisionThresholdsSchema.parse({});

/** The level at which the harm test drops a candidate: never looser than a demotion's (a drop is final). */
export function dropLevel(thresholds: DecisionThresholds): number {
  return Math.min(thresholds.dropAlpha, thresholds.demoteAlpha);
}

/**
 * What the sequential rules say of an entry for its lifecycle: harmful (the one-sided harm test at `demoteAlpha`:
 * demotion, reversible), confirmed harmful (the confidence sequence at `confirmAlpha`: archive), safe (the confidence
 * sequence at `alpha`), or open; with the harm test's log likelihood ratio, for the stored reason.
 */
export function contrastDecision(
  contrast: ExperienceContrast | undefined,
  thresholds: DecisionThresholds = defaultDecisionThresholds,
): {
  harmful: boolean;
  /** Harmful at `dropAlpha`, the level for an archive: implies `harmful`. */
  droppable: boolean;
  confirmedHarm: boolean;
  safe: boolean;
  decidable: boolean;
  harmLogRatio: number;
} {
  const counters = contrast ?? { n: 0, sum: 0, sumSquares: 0 };
  const decidable = counters.n >= thresholds.minContrasts;
  const harm = harmTest(counters, {
    effect: thresholds.harmEffect,
    alpha: thresholds.demoteAlpha,
    margin: thresholds.harmMargin,
  });
  if (!decidable)
    return {
      harmful: false,
      droppable: false,
      confirmedHarm: false,
      safe: false,
      decidable,
      harmLogRatio: harm.logRatio,
    };
  const sequence = { ...defaultSequenceOptions, horizon: thresholds.horizon };
  const bounds = contrastSequence(counters, { ...sequence, alpha: thresholds.alpha });
  const confirm = contrastSequence(counters, { ...sequence, alpha: thresholds.confirmAlpha });
  const confirmedHarm = confirm.upper < -thresholds.harmMargin;
  return {
    // Confirmed harm is harm too: the stricter two-sided rule may cross first for a large effect far from harmEffect.
    harmful: harm.harmful || confirmedHarm,
    droppable: harm.logRatio >= Math.log(1 / dropLevel(thresholds)) || confirmedHarm,
    confirmedHarm,
    safe: bounds.lower >= -thresholds.promoteMargin,
    decidable,
    harmLogRatio: harm.logRatio,
  };
}

/**
 * How much an entry's next contrast is worth, in [0, 1]: 1 with fewer than `minContrasts` groups (nothing is known);
 * for an open decision (the sequence straddles a threshold) 0.5 plus half the chance, on the current estimate, that
 * the entry is harmful (an entry leaning to harm is what costs the user most while it stays); 0 once settled (safe or
 * harmful for an active or candidate entry; for a probation entry only confirmed harm or safety settles it).
 */
export function decisionPriority(
  contrast: ExperienceContrast | undefined,
  status: ExperienceStatus,
  thresholds: DecisionThresholds = defaultDecisionThresholds,
): number {
  if (status === "archived") return 0;
  const counters = contrast ?? { n: 0, sum: 0, sumSquares: 0 };
  const decision = contrastDecision(counters, thresholds);
  if (!decision.decidable) return 1;
  // Settled is what the lifecycle would act on: a candidate is dropped only at the archive's level.
  const harmSettles =
    status === "probation"
      ? decision.confirmedHarm
      : status === "candidate"
        ? decision.droppable
        : decision.harmful;
  const settled = harmSettles || decision.safe;
  if (settled) return 0;
  const bounds = contrastSequence(counters, { ...defaultSequenceOptions, horizon: thresholds.horizon });
  const lean = normalCdf((-thresholds.harmMargin - bounds.estimate) / bounds.standardError);
  return 0.5 + 0.5 * lean;
}

/**
 * The share of groups (offline) or requests (online) in which an entry of this priority is varied: every one while
 * its decision is open (priority 0.5 and up), `budget` (the stated exposure budget) once it is settled.
 */
export function exposureShare(priority: number, budget: number): number {
  return budget + (1 - budget) * Math.min(1, 2 * priority);
}
