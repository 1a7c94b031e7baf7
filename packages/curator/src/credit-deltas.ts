import type { creditObservationSchema } from "@tfgrpo/protocol";
import type { z } from "zod";

export type CreditObservation = z.infer<typeof creditObservationSchema>;

/** Increments to one entry's stats from one batch (stats are counters: batches add up, in any order). */
export interface StatsDelta {
  id: string;
  shown: number;
  success: number;
  sumDelta: number;
  /** Library version the rollouts read; the store keeps the maximum. */
  lastUsedVersion: number | null;
}

/**
 * Turns a batch's rollouts into per-entry stat increments: every credited entry of a rollout gains one showing, the
 * rollout's reward as success and (reward - group mean) as delta, the group-relative advantage that makes this GRPO.
 * With attribution "cited" only entries the actor cited earn credit (shown ones it ignored are not blamed for it).
 */
export function creditDeltas(
  observations: readonly CreditObservation[],
  options: { version: number | null; attribution: "shown" | "cited" },
): StatsDelta[] {
  const byId = new Map<string, StatsDelta>();
  for (const observation of observations) {
    const ids = new Set(
      options.attribution === "cited"
        ? observation.cited.filter((id) => observation.shown.includes(id))
        : observation.shown,
    );
    const delta = observation.reward - observation.groupMeanReward;
    for (const id of ids) {
      let entry = byId.get(id);
      if (!entry) {
        entry = { id, shown: 0, success: 0, sumDelta: 0, lastUsedVersion: options.version };
        byId.set(id, entry);
      }
      entry.shown += 1;
      entry.success += observation.reward;
      entry.sumDelta += delta;
    }
  }
  return [...byId.values()].sort((a, b) => compareExperienceIds(a.id, b.id));
}

/** G2 before G10: ids sort by their number. */
export function compareExperienceIds(a: string, b: string): number {
  const na = Number(a.slice(1));
  const nb = Number(b.slice(1));
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
