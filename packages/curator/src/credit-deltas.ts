import {
  addContrast,
  type creditObservationSchema,
  type ExperienceContrast,
  emptyContrast,
} from "@tfgrpo/protocol";
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
  /** Groups of the batch in which the entry was varied, as contrast counters (absent: none). */
  contrast?: ExperienceContrast;
}

/**
 * Turns a batch's rollouts into per-entry stat increments: every credited entry of a rollout gains one showing, the
 * rollout's reward as success and (reward - group mean) as delta, the group-relative advantage that makes this GRPO.
 * With attribution "cited" only entries the actor cited earn credit (shown ones it ignored are not blamed for it).
 */
export function creditDeltas(
  observations: readonly CreditObservation[],
  options: {
    version: number | null;
    attribution: "shown" | "cited";
    /** `groupContrasts`' relevance share (default `defaultContrastRelevance`). */
    relevance?: number;
  },
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
  for (const [id, contrast] of groupContrasts(observations, options.relevance)) {
    let entry = byId.get(id);
    if (!entry) {
      // Shown but not cited (attribution "cited"): the contrast is about showing, so it still counts.
      entry = { id, shown: 0, success: 0, sumDelta: 0, lastUsedVersion: options.version };
      byId.set(id, entry);
    }
    entry.contrast = contrast;
  }
  return [...byId.values()].sort((a, b) => compareExperienceIds(a.id, b.id));
}

/** A group counts towards an entry's contrast where its similarity is at least half its best over the batch. */
export const defaultContrastRelevance = 0.5;

/**
 * The controlled contrast of each varied entry: in every group where some rollouts showed it and others had it
 * withheld, mean reward shown minus mean reward withheld, one difference per group (the same task, so the task's
 * difficulty cancels). Whatever else was shown or withheld is balanced over both arms by the exposure's randomization.
 *
 * Only groups where the entry applies count. The rollouts record each varied entry's similarity to the task; a group
 * counts when that similarity is at least `relevance` times the entry's highest over the batch's groups. The rule
 * reads nothing an outcome could move (the similarity is fixed before the first attempt, the same in both arms), so a
 * contrast stays a fair comparison; it only stops a lesson about one kind of task from being averaged with the zero
 * differences of the tasks it never addresses. Groups without a recorded similarity (no embeddings, older
 * trajectories) always count, as does every group of an entry whose highest similarity is not positive.
 */
export function groupContrasts(
  observations: readonly CreditObservation[],
  relevance: number = defaultContrastRelevance,
): Map<string, ExperienceContrast> {
  const groups = new Map<string, CreditObservation[]>();
  for (const observation of observations) {
    if (observation.groupId === undefined) continue;
    const list = groups.get(observation.groupId) ?? [];
    list.push(observation);
    groups.set(observation.groupId, list);
  }
  const differences: { id: string; difference: number; similarity: number | undefined }[] = [];
  const best = new Map<string, number>();
  for (const members of groups.values()) {
    const varied = new Set(members.flatMap((observation) => observation.withheld ?? []));
    for (const id of varied) {
      const shown = members.filter((observation) => observation.shown.includes(id));
      const withheld = members.filter((observation) => observation.withheld?.includes(id));
      if (shown.length === 0 || withheld.length === 0) continue;
      const similarity = members.find((observation) => observation.similarity?.[id] !== undefined)
        ?.similarity?.[id];
      if (similarity !== undefined) best.set(id, Math.max(best.get(id) ?? similarity, similarity));
      differences.push({ id, difference: meanReward(shown) - meanReward(withheld), similarity });
    }
  }
  const contrasts = new Map<string, ExperienceContrast>();
  for (const { id, difference, similarity } of differences) {
    const top = best.get(id);
    const applies =
      similarity === undefined || top === undefined || top <= 0 || similarity >= relevance * top;
    if (!applies) continue;
    contrasts.set(id, addContrast(contrasts.get(id) ?? emptyContrast(), difference));
  }
  return contrasts;
}

function meanReward(observations: readonly CreditObservation[]): number {
  return observations.reduce((sum, observation) => sum + observation.reward, 0) / observations.length;
}

/** G2 before G10: ids sort by their number. */
export function compareExperienceIds(a: string, b: string): number {
  const na = Number(a.slice(1));
  const nb = Number(b.slice(1));
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
