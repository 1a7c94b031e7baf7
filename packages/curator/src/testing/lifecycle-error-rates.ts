import {
  addContrast,
  contrastSequence,
  defaultDecisionThresholds,
  defaultSequenceOptions,
  type ExperienceContrast,
  type ExperienceStatus,
  emptyContrast,
  entryContrast,
  seededRandom,
} from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import type { ActiveBudget } from "../active-budget.js";
import { type LifecyclePolicy, planLifecycle } from "../plan-lifecycle.js";

/*
 * Monte Carlo error rates of the lifecycle's moves under repeated looks, over the real `planLifecycle` (issue 32): an
 * entry's contrast grows group by group as in a learning run (each group: G attempts of one task, the entry shown to a
 * seeded random half, each attempt a success with the task's rate plus the entry's effect), and the lifecycle looks
 * after every step. The first move is its decision; a trial that never moves within the looks is undecided.
 */

export interface LifecycleTrialSetting {
  status: Extract<ExperienceStatus, "active" | "candidate">;
  /** True effect of showing the entry on a relevant task's success rate (clipped to [0, 1] per task). */
  effect: number;
  /** Share of the entry's groups on which it acts (the rest: no effect). */
  relevantShare: number;
  attempts: number;
  groupsPerLook: number;
  looks: number;
  trials: number;
  seed: number;
}

export interface LifecycleTrialResult {
  /** Share of trials whose first move was to probation or archive (active) / archive (candidate). */
  demoted: number;
  /** Share of trials whose first move was a promotion (candidates only). */
  promoted: number;
  undecided: number;
  /** Mean groups at the first move, over the trials that moved (NaN if none). */
  meanGroupsToDecision: number;
}

/** A lifecycle rule on an entry's counters: the move it makes at this look, if any. */
export type LifecycleRule = (
  status: LifecycleTrialSetting["status"],
  contrast: ExperienceContrast,
) => "demote" | "promote" | null;

/** The real lifecycle (`planLifecycle`) as a rule, with the given policy and a budget wide enough for one entry. */
export function plannedRule(policy: LifecyclePolicy): LifecycleRule {
  const budget: ActiveBudget = { maxEntries: 50, maxTokens: 10_000 };
  return (status, contrast) => {
    const [move] = planLifecycle({
      experiences: [
        makeExperience({
          id: "G1",
          status,
          text: "When the simulated lesson applies, follow it.",
          provenance: { runId: null, version: 1, fromOps: [] },
          stats: { shown: contrast.n * 3, success: 0, sumDelta: 0, lastUsedVersion: 2, contrast },
        }),
      ],
      version: 2,
      policy,
      budget,
      utility: { kind: "ucb", c: 1.2 },
    });
    if (!move) return null;
    return move.to === "active" ? "promote" : "demote";
  };
}

/**
 * The rule before issue 32, for comparison: a fixed-n one-sided 95% interval (`entryContrast`) checked at every look,
 * harmful when its upper bound is below `-harmMargin`, safe when its lower bound is at least `-promoteMargin`.
 */
export function fixedIntervalRule(policy: LifecyclePolicy): LifecycleRule {
  return (status, contrast) => {
    if (contrast.n < policy.minContrasts) return null;
    const interval = entryContrast({ shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null, contrast });
    if (interval.upper < -policy.harmMargin) return "demote";
    if (status === "candidate" && interval.lower >= -policy.promoteMargin) return "promote";
    return null;
  };
}

/**
 * The rule before the one-sided harm test, for comparison: the two-sided confidence sequence at `alpha` decides an
 * active entry's demotion (upper bound below `-harmMargin`) and a candidate's promotion (lower bound at least
 * `-promoteMargin`); a candidate is archived when the sequence at `confirmAlpha` is below `-harmMargin`.
 */
export function sequenceOnlyRule(policy: LifecyclePolicy): LifecycleRule {
  const options = {
    ...defaultSequenceOptions,
    alpha: policy.alpha ?? defaultDecisionThresholds.alpha,
    horizon: policy.horizon ?? defaultDecisionThresholds.horizon,
  };
  const confirmAlpha = policy.confirmAlpha ?? defaultDecisionThresholds.confirmAlpha;
  return (status, contrast) => {
    if (contrast.n < policy.minContrasts) return null;
    const bounds = contrastSequence(contrast, options);
    const harmLevel =
      status === "active" ? bounds : contrastSequence(contrast, { ...options, alpha: confirmAlpha });
    if (harmLevel.upper < -policy.harmMargin) return "demote";
    if (status === "candidate" && bounds.lower >= -policy.promoteMargin) return "promote";
    return null;
  };
}

export function lifecycleTrials(setting: LifecycleTrialSetting, rule: LifecycleRule): LifecycleTrialResult {
  const random = seededRandom(setting.seed);
  let demoted = 0;
  let promoted = 0;
  let groupsAtDecision = 0;
  for (let trial = 0; trial < setting.trials; trial++) {
    let contrast = emptyContrast();
    let decided: "demote" | "promote" | null = null;
    for (let look = 0; look < setting.looks && decided === null; look++) {
      for (let group = 0; group < setting.groupsPerLook; group++) {
        contrast = addContrast(contrast, groupDifference(setting, random));
      }
      decided = rule(setting.status, contrast);
    }
    if (decided === "demote") demoted++;
    if (decided === "promote") promoted++;
    if (decided !== null) groupsAtDecision += contrast.n;
  }
  const moved = demoted + promoted;
  return {
    demoted: demoted / setting.trials,
    promoted: promoted / setting.trials,
    undecided: (setting.trials - moved) / setting.trials,
    meanGroupsToDecision: moved === 0 ? Number.NaN : groupsAtDecision / moved,
  };
}

/** One group's difference, mean reward shown minus withheld, over a random half of the attempts shown. */
function groupDifference(setting: LifecycleTrialSetting, random: () => number): number {
  const { attempts } = setting;
  const base = 0.15 + 0.7 * random();
  const effect = random() < setting.relevantShare ? setting.effect : 0;
  const shownCount = random() < 0.5 ? Math.floor(attempts / 2) : Math.ceil(attempts / 2);
  const rate = (shown: boolean) => Math.min(1, Math.max(0, base + (shown ? effect : 0)));
  let shownSum = 0;
  let withheldSum = 0;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const shown = attempt < shownCount;
    const reward = random() < rate(shown) ? 1 : 0;
    if (shown) shownSum += reward;
    else withheldSum += reward;
  }
  return shownSum / shownCount - withheldSum / (attempts - shownCount);
}
