import {
  type ContrastInterval,
  contrastDecision,
  contrastOf,
  contrastSequence,
  type DecisionThresholds,
  defaultDecisionThresholds,
  defaultSequenceOptions,
  dropLevel,
  type Experience,
  type ExperienceContrast,
  type ExperienceStatus,
  estimateTokens,
  formatContrast,
  formatSigned,
  meanDelta,
  type UtilityOptions,
  utilityScore,
} from "@tfgrpo/protocol";
import { type ActiveBudget, fitActiveBudget } from "./active-budget.js";
import { compareExperienceIds } from "./credit-deltas.js";
import { assertTransition } from "./lifecycle-transitions.js";

export interface LifecyclePolicy {
  /** Groups with both arms an entry's contrast needs before it decides a move. */
  minContrasts: number;
  /** Showings an entry without any contrast (exposure off) needs before its mean delta decides a move. */
  minEvidence: number;
  /** Safe: the contrast's lower bound is at least minus this (harm beyond it is ruled out). */
  promoteMargin: number;
  /** Harmful: the contrast's upper bound is below minus this. */
  harmMargin: number;
  /** Without any contrast: harmful when the mean delta is below minus this. */
  meanDeltaHarmMargin: number;
  staleAfterVersions: number;
  probationVersions: number;
  /** Share of the entry budget moved to probation, lowest lower bound first, each time the live set is over it. */
  pruneFraction: number;
  /** Level of the confidence sequence, each side, over all looks (default 0.05). */
  alpha?: number;
  /** Level of the sequential harm test that demotes an active entry (default 0.1). */
  demoteAlpha?: number;
  /** Level of the same harm test that drops a candidate (an archive; default 0.1). */
  dropAlpha?: number;
  /** The demotion test's harmful alternative: a mean contrast this far below `-harmMargin` (default 0.15). */
  harmEffect?: number;
  /** Level at which harm is confirmed (default 0.02). */
  confirmAlpha?: number;
  /** Groups at which the sequence is tightest (default 8). */
  horizon?: number;
}

export interface LifecycleEvidence {
  shown: number;
  meanDelta: number;
  /** The controlled contrast (n = 0: none yet), its bounds the confidence sequence's at `alpha`. */
  contrast: ContrastInterval;
  utility: number;
  /** Versions since the entry was last shown (or created, if never shown). */
  idleVersions: number;
}

export interface LifecycleTransition {
  id: string;
  from: ExperienceStatus;
  to: ExperienceStatus;
  reason: string;
  evidence: LifecycleEvidence;
}

export interface PlanLifecycleInput {
  experiences: readonly Experience[];
  /** The library version the evidence was gathered on: the clock for staleness and probation. */
  version: number;
  policy: LifecyclePolicy;
  budget: ActiveBudget;
  utility: UtilityOptions;
  countTokens?: (text: string) => number;
  /**
   * The closing look of a run (its last lifecycle, after the last step's credit): no later look will come, so a
   * candidate whose harm the archive's own sequential test establishes is dropped with the `minContrasts` groups
   * every bound needs, instead of waiting for twice that. The tests and their levels are the run's.
   */
  closing?: boolean;
}

function probationSince(entry: Experience): number {
  for (let index = entry.history.length - 1; index >= 0; index--) {
    const event = entry.history[index]!;
    if (event.to === "probation") return event.version;
  }
  return entry.provenance.version;
}

/** What the evidence of one entry says, and in what words. */
interface Verdict {
  /** Harmful at the demotion's level (an active entry goes to probation). */
  harmful: boolean;
  /** Harmful at the drop's level (a candidate is archived). */
  droppable: boolean;
  safe: boolean;
  /** Harm confirmed at the stricter level (archive). */
  confirmedHarm: boolean;
  record: string;
  /** The harm rule that applied, in words. */
  limit: string;
  /** The harm rule of a candidate's drop, in words. */
  dropLimit: string;
  /** The rule of confirmed harm, in words. */
  confirmLimit: string;
  /** The rank key of the budget: the contrast's lower bound (or, without one, the mean delta). */
  rank: number;
}

function thresholdsOf(policy: LifecyclePolicy): DecisionThresholds {
  return {
    minContrasts: policy.minContrasts,
    harmMargin: policy.harmMargin,
    promoteMargin: policy.promoteMargin,
    alpha: policy.alpha ?? defaultDecisionThresholds.alpha,
    demoteAlpha: policy.demoteAlpha ?? defaultDecisionThresholds.demoteAlpha,
    dropAlpha: policy.dropAlpha ?? defaultDecisionThresholds.dropAlpha,
    harmEffect: policy.harmEffect ?? defaultDecisionThresholds.harmEffect,
    confirmAlpha: policy.confirmAlpha ?? defaultDecisionThresholds.confirmAlpha,
    horizon: policy.horizon ?? defaultDecisionThresholds.horizon,
  };
}

/** The contrast's time-uniform bounds at the policy's level: what a move states and the budget ranks by. */
export function lifecycleBounds(stats: Experience["stats"], policy: LifecyclePolicy): ContrastInterval {
  const thresholds = thresholdsOf(policy);
  return contrastSequence(contrastOf(stats), {
    ...defaultSequenceOptions,
    alpha: thresholds.alpha,
    horizon: thresholds.horizon,
  });
}

function verdictOf(
  evidence: LifecycleEvidence,
  counters: ExperienceContrast,
  policy: LifecyclePolicy,
): Verdict {
  const { contrast } = evidence;
  if (contrast.n > 0) {
    const thresholds = thresholdsOf(policy);
    const decision = contrastDecision(counters, thresholds);
    const level = `${Math.round((1 - thresholds.alpha) * 100)}% confidence sequence`;
    const confirmLimit = `upper bound below ${formatSigned(-policy.harmMargin)}, at ${Math.round((1 - thresholds.confirmAlpha) * 100)}% too`;
    const harmTestLimit = (alpha: number) =>
      `sequential test of no harm beyond ${formatSigned(-policy.harmMargin)} against ${formatSigned(-policy.harmMargin - thresholds.harmEffect)} or ${formatSigned(-policy.harmMargin - 2 * thresholds.harmEffect)}: log likelihood ratio ${decision.harmLogRatio.toFixed(2)}, threshold ${Math.log(1 / alpha).toFixed(2)} (level ${alpha})`;
    const dropAlpha = dropLevel(thresholds);
    return {
      harmful: decision.harmful,
      droppable: decision.droppable,
      safe: decision.safe,
      confirmedHarm: decision.confirmedHarm,
      record: `contrast ${formatContrast(contrast)} (${level})`,
      // Harmful by the one-sided test, or (a large effect far from harmEffect) by confirmed harm: each says its rule.
      limit:
        decision.harmLogRatio >= Math.log(1 / thresholds.demoteAlpha)
          ? harmTestLimit(thresholds.demoteAlpha)
          : confirmLimit,
      dropLimit: decision.harmLogRatio >= Math.log(1 / dropAlpha) ? harmTestLimit(dropAlpha) : confirmLimit,
      confirmLimit,
      rank: contrast.lower,
    };
  }
  // No contrast (exposure off, or served before contrasts existed): the shared group-relative delta, as before.
  const decided = evidence.shown >= policy.minEvidence;
  const harmful = decided && evidence.meanDelta < -policy.meanDeltaHarmMargin;
  return {
    harmful,
    droppable: harmful,
    safe: decided && evidence.meanDelta >= -policy.promoteMargin,
    confirmedHarm: harmful,
    record: `no contrast; mean delta ${formatSigned(evidence.meanDelta)} over ${evidence.shown} rollouts`,
    limit: `limit ${formatSigned(-policy.meanDeltaHarmMargin)}`,
    dropLimit: `limit ${formatSigned(-policy.meanDeltaHarmMargin)}`,
    confirmLimit: `limit ${formatSigned(-policy.meanDeltaHarmMargin)}`,
    rank: decided ? evidence.meanDelta - 1 : -2,
  };
}

/**
 * Decides, from evidence only, which entries move through the lifecycle (seed 002, 3.3 and 3.4). The evidence is an
 * entry's controlled contrast (reward shown minus withheld) with the bounds of a confidence sequence
 * (`contrastSequence`: valid at every look at once, so deciding at the first step a bound crosses keeps its error
 * rate): an entry is *safe* when the lower bound rules out harm beyond `promoteMargin`, *harmful* when the upper bound
 * rules out no effect (below `-harmMargin`), *confirmed harmful* when it does so at `confirmAlpha` too, all only with
 * `minContrasts` groups or more. A large effect crosses in a few groups, a small one later.
 * - a safe candidate competes for the active set; a harmful one is archived once the harm is confirmed (twice the
 *   evidence), never on a handful of showings; one still undecided after the stale window is archived;
 * - a harmful active entry goes to probation, and so does one no longer shown;
 * - a probation entry that is safe again competes for the active set; one whose harm is confirmed, or still not safe
 *   after the probation window, is archived;
 * - the active set is filled within the entry and token budget by the contrast's lower bound; what does not fit goes
 *   to probation, and while the live set is over the budget at least `pruneFraction` of it does (never deleted).
 * Without any contrast (exposure off) the mean delta against the group decides, as the paper's loop had it.
 * Pure: the caller writes the transitions (each with its numbers in its reason) as modify operations.
 */
export function planLifecycle(input: PlanLifecycleInput): LifecycleTransition[] {
  const { policy, version } = input;
  // During a run a candidate waits for twice the groups a bound needs before the harm test drops it (the next step
  // brings more); the closing look has no next step.
  const dropGroups = input.closing ? policy.minContrasts : 2 * policy.minContrasts;
  const closingNote = input.closing ? "; closing look of the run" : "";
  const countTokens = input.countTokens ?? estimateTokens;
  const live = input.experiences.filter((entry) => entry.status !== "archived");
  const totalShown = live.reduce((sum, entry) => sum + entry.stats.shown, 0);
  const transitions: LifecycleTransition[] = [];
  const eligible: { entry: Experience; evidence: LifecycleEvidence; verdict: Verdict; note: string }[] = [];

  const move = (entry: Experience, to: ExperienceStatus, reason: string, evidence: LifecycleEvidence) => {
    assertTransition(entry.id, entry.status, to);
    transitions.push({ id: entry.id, from: entry.status, to, reason, evidence });
  };

  for (const entry of live) {
    const stats = entry.stats;
    const evidence: LifecycleEvidence = {
      shown: stats.shown,
      meanDelta: meanDelta(stats),
      contrast: lifecycleBounds(stats, policy),
      utility: utilityScore(stats, totalShown, input.utility),
      idleVersions: Math.max(0, version - (stats.lastUsedVersion ?? entry.provenance.version)),
    };
    const verdict = verdictOf(evidence, contrastOf(stats), policy);
    const { record, limit, confirmLimit } = verdict;
    const stale = evidence.idleVersions >= policy.staleAfterVersions;
    const age = version - entry.provenance.version;
    const idle =
      stats.lastUsedVersion === null
        ? `never shown in ${evidence.idleVersions} versions since v${entry.provenance.version}`
        : `not shown for ${evidence.idleVersions} versions (last v${stats.lastUsedVersion})`;

    switch (entry.status) {
      case "candidate":
        // A candidate has no standing to lose: the demotion's sequential test of harm drops it too, at the archive's
        // level, once it has twice the groups any bound needs (more come with the next step), or at the closing look
        // the groups any bound needs (none will come).
        if (verdict.confirmedHarm || (verdict.droppable && (stats.contrast?.n ?? 0) >= dropGroups))
          move(
            entry,
            "archived",
            `candidate hurts: ${record} (${verdict.confirmedHarm ? confirmLimit : verdict.dropLimit}${closingNote})`,
            evidence,
          );
        else if ((stale || age >= policy.staleAfterVersions) && !verdict.safe)
          move(
            entry,
            "archived",
            `candidate never proved itself: ${stale ? idle : `not shown to be safe in ${age} versions since v${entry.provenance.version}`}; ${record}`,
            evidence,
          );
        else if (verdict.safe) eligible.push({ entry, evidence, verdict, note: `safe: ${record}` });
        break;
      case "active":
        if (verdict.harmful) move(entry, "probation", `hurts: ${record} (${limit}${closingNote})`, evidence);
        else if (stale) move(entry, "probation", `no longer selected: ${idle}`, evidence);
        else eligible.push({ entry, evidence, verdict, note: record });
        break;
      case "probation": {
        const onProbation = version - probationSince(entry);
        const expired = onProbation >= policy.probationVersions;
        if (verdict.confirmedHarm)
          move(entry, "archived", `harm confirmed on probation: ${record} (${confirmLimit})`, evidence);
        else if (verdict.safe && !stale)
          eligible.push({ entry, evidence, verdict, note: `recovered: ${record}` });
        else if (expired)
          move(
            entry,
            "archived",
            stale
              ? `not selected during ${onProbation} versions on probation: ${idle}`
              : `not shown to be safe after ${onProbation} versions on probation: ${record}`,
            evidence,
          );
        break;
      }
    }
  }

  // Best lower bound first (what the evidence guarantees, not what it hopes); ties: the entry already active keeps
  // its place (no churn), then the higher estimate, then the older id.
  eligible.sort(
    (a, b) =>
      b.verdict.rank - a.verdict.rank ||
      Number(b.entry.status === "active") - Number(a.entry.status === "active") ||
      b.evidence.contrast.estimate - a.evidence.contrast.estimate ||
      compareExperienceIds(a.entry.id, b.entry.id),
  );
  const { fits, overflow } = fitActiveBudget(
    eligible.map((item) => ({ ...item, id: item.entry.id, text: item.entry.text })),
    input.budget,
    countTokens,
  );
  // Over the budget, the bottom of what fits goes too (seed 002 5.2: a fixed share of the last places each round),
  // so the set keeps room for what the next step proposes instead of settling at the brim.
  const pruned =
    overflow.length > 0
      ? Math.max(0, Math.ceil(policy.pruneFraction * input.budget.maxEntries) - overflow.length)
      : 0;
  const kept = fits.slice(0, Math.max(0, fits.length - pruned));
  const dropped = [...fits.slice(kept.length), ...overflow];
  const budgetNote = `${input.budget.maxEntries} entries, ${input.budget.maxTokens} tokens`;
  kept.forEach((item, rank) => {
    if (item.entry.status === "active") return;
    const verb = item.entry.status === "candidate" ? "promoted" : "back from probation";
    move(
      item.entry,
      "active",
      `${verb}: ${item.note}; ranks ${rank + 1} within the active budget`,
      item.evidence,
    );
  });
  dropped.forEach((item, index) => {
    if (item.entry.status !== "active") return;
    move(
      item.entry,
      "probation",
      `over the active budget (${budgetNote}): ${item.note}; ranks ${kept.length + index + 1} by lower bound`,
      item.evidence,
    );
  });
  return transitions.sort((a, b) => compareExperienceIds(a.id, b.id));
}
