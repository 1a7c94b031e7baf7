import type { ScoredExperience } from "@tfgrpo/actor";
import { type Exposure, exposureThresholds, inExposureBudget, isVaried } from "@tfgrpo/protocol";
import type { ServedSelectionPlan } from "./exploration-slot.js";

export interface ExposedPlan extends ServedSelectionPlan {
  /** The varied entries this request drew into the withheld arm: selected, not shown. */
  withheldIds: string[];
}

export interface RequestExposure {
  /** Exposure budget: share of requests in which a settled active entry is varied (open ones always are). */
  activeShare: number;
  /** Draws this request's arms (seeded in tests). */
  random: () => number;
}

/**
 * The offline exposure per request, with the same priority (`variationOf`, `decisionPriority` in the protocol kernel):
 * every entry of the selection whose decision is open (a candidate, a probation entry, an active one with few contrasts
 * or whose confidence sequence straddles a lifecycle threshold) is varied on every request, a settled active one on
 * `activeShare` of them (the exposure budget); a varied entry is shown to this request or withheld from it by a fair
 * coin. Shown, it is in `explorationIds` (the exploration arm); withheld, in `withheldIds`. So a probation entry is
 * only ever shown in the exploration arm, and an open entry's requests split at random into two arms whose rewards the
 * store compares within a stratum of similar tasks. The "most useful" repeat never carries a varied entry, in either
 * arm, so the arms' prompts differ only in the varied lines.
 */
export function varyExposure(plan: ServedSelectionPlan, exposure: RequestExposure): ExposedPlan {
  // The budget's draw is per request: a fresh seed, the same rule as a group's offline.
  const rotation: Exposure = {
    attempts: 2,
    seed: Math.floor(exposure.random() * 4294967296),
    activeShare: exposure.activeShare,
  };
  const thresholds = exposureThresholds(rotation);
  const varied = new Set(
    plan.shown
      .filter((entry) =>
        // Live traffic: an active entry with no evidence yet is served and measured within the budget (a user's
        // request should not pay for every unmeasured entry); once its contrast says its decision is open, always.
        entry.status === "active" && (entry.contrast?.n ?? 0) < thresholds.minContrasts
          ? inExposureBudget(rotation, entry.id, 0)
          : isVaried(rotation, entry.id, entry.status, entry.contrast),
      )
      .map((entry) => entry.id),
  );
  const withheld = new Set([...varied].filter(() => exposure.random() < 0.5));
  const keep = (entry: ScoredExperience) => !withheld.has(entry.id);
  const shown = plan.shown.filter(keep);
  const mostUseful = plan.mostUseful.filter((entry) => !varied.has(entry.id));
  return {
    shown,
    mostUseful: shown.length > mostUseful.length ? mostUseful : [],
    explorationIds: shown.filter((entry) => varied.has(entry.id)).map((entry) => entry.id),
    withheldIds: plan.shown.filter((entry) => withheld.has(entry.id)).map((entry) => entry.id),
  };
}
