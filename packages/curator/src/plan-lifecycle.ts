import {
  type Experience,
  type ExperienceStatus,
  estimateTokens,
  meanDelta,
  type UtilityOptions,
  utilityScore,
} from "@tfgrpo/protocol";
import { type ActiveBudget, fitActiveBudget } from "./active-budget.js";
import { compareExperienceIds } from "./credit-deltas.js";
import { assertTransition } from "./lifecycle-transitions.js";

export interface LifecyclePolicy {
  minEvidence: number;
  promoteMargin: number;
  harmMargin: number;
  staleAfterVersions: number;
  probationVersions: number;
}

export interface LifecycleEvidence {
  shown: number;
  meanDelta: number;
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
}

const fmt = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : "unexplored");
const signed = (value: number) => (value >= 0 ? `+${value.toFixed(3)}` : value.toFixed(3));

function probationSince(entry: Experience): number {
  for (let index = entry.history.length - 1; index >= 0; index--) {
    const event = entry.history[index]!;
    if (event.to === "probation") return event.version;
  }
  return entry.provenance.version;
}

/**
 * Decides, from evidence only, which entries move through the lifecycle (seed 002, 3.3 and 3.4):
 * - candidates that proved themselves (enough showings, not worse than their groups) compete for the active set;
 *   candidates that did worse, or were never selected for a long time, are archived;
 * - active entries that do worse than baseline or are no longer selected go to probation;
 * - probation entries that recover compete again; those still bad after the probation window are archived;
 * - the active set is refilled by utility within the entry and token budget; active overflow goes to probation.
 * Pure: the caller writes the transitions (each with its reason) as modify operations.
 */
export function planLifecycle(input: PlanLifecycleInput): LifecycleTransition[] {
  const { policy, version } = input;
  const countTokens = input.countTokens ?? estimateTokens;
  const live = input.experiences.filter((entry) => entry.status !== "archived");
  const totalShown = live.reduce((sum, entry) => sum + entry.stats.shown, 0);
  const transitions: LifecycleTransition[] = [];
  const eligible: { entry: Experience; evidence: LifecycleEvidence; note: string }[] = [];

  const move = (entry: Experience, to: ExperienceStatus, reason: string, evidence: LifecycleEvidence) => {
    assertTransition(entry.id, entry.status, to);
    transitions.push({ id: entry.id, from: entry.status, to, reason, evidence });
  };

  for (const entry of live) {
    const stats = entry.stats;
    const evidence: LifecycleEvidence = {
      shown: stats.shown,
      meanDelta: meanDelta(stats),
      utility: utilityScore(stats, totalShown, input.utility),
      idleVersions: Math.max(0, version - (stats.lastUsedVersion ?? entry.provenance.version)),
    };
    const enough = stats.shown >= policy.minEvidence;
    const record = `mean delta ${signed(evidence.meanDelta)} over ${stats.shown} rollouts`;
    const harmful = enough && evidence.meanDelta < -policy.harmMargin;
    const stale = evidence.idleVersions >= policy.staleAfterVersions;
    const proven = enough && evidence.meanDelta >= policy.promoteMargin;
    const idle =
      stats.lastUsedVersion === null
        ? `never shown in ${evidence.idleVersions} versions since v${entry.provenance.version}`
        : `not shown for ${evidence.idleVersions} versions (last v${stats.lastUsedVersion})`;

    switch (entry.status) {
      case "candidate":
        if (harmful)
          move(
            entry,
            "archived",
            `candidate did worse than its groups: ${record} (limit -${policy.harmMargin})`,
            evidence,
          );
        else if (stale) move(entry, "archived", `candidate never proved itself: ${idle}`, evidence);
        else if (proven) eligible.push({ entry, evidence, note: `proven: ${record}` });
        break;
      case "active":
        if (harmful)
          move(
            entry,
            "probation",
            `does worse than baseline: ${record} (limit -${policy.harmMargin})`,
            evidence,
          );
        else if (stale) move(entry, "probation", `no longer selected: ${idle}`, evidence);
        else eligible.push({ entry, evidence, note: record });
        break;
      case "probation": {
        const onProbation = version - probationSince(entry);
        const expired = onProbation >= policy.probationVersions;
        if (harmful) {
          if (expired)
            move(
              entry,
              "archived",
              `still worse than baseline after ${onProbation} versions on probation: ${record}`,
              evidence,
            );
        } else if (stale) {
          if (expired)
            move(
              entry,
              "archived",
              `not selected during ${onProbation} versions on probation: ${idle}`,
              evidence,
            );
        } else if (stats.shown === 0 || proven) {
          eligible.push({ entry, evidence, note: stats.shown === 0 ? "unexplored" : `recovered: ${record}` });
        }
        break;
      }
    }
  }

  // Best utility first; on ties the entry already active keeps its place (no churn), then the older id.
  eligible.sort(
    (a, b) =>
      b.evidence.utility - a.evidence.utility ||
      Number(b.entry.status === "active") - Number(a.entry.status === "active") ||
      compareExperienceIds(a.entry.id, b.entry.id),
  );
  const { fits, overflow } = fitActiveBudget(
    eligible.map((item) => ({ ...item, id: item.entry.id, text: item.entry.text })),
    input.budget,
    countTokens,
  );
  fits.forEach((item, rank) => {
    if (item.entry.status === "active") return;
    const verb = item.entry.status === "candidate" ? "promoted" : "back from probation";
    move(
      item.entry,
      "active",
      `${verb}: ${item.note}; utility ${fmt(item.evidence.utility)} ranks ${rank + 1} within the active budget`,
      item.evidence,
    );
  });
  overflow.forEach((item, index) => {
    if (item.entry.status !== "active") return;
    move(
      item.entry,
      "probation",
      `over the active budget (${input.budget.maxEntries} entries, ${input.budget.maxTokens} tokens): utility ${fmt(item.evidence.utility)} ranks ${fits.length + index + 1}`,
      item.evidence,
    );
  });
  return transitions.sort((a, b) => compareExperienceIds(a.id, b.id));
}
