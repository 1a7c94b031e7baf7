import { createHash } from "node:crypto";
import type { Experience } from "@tfgrpo/protocol";
import { compareExperienceIds } from "./credit-deltas.js";

/**
 * Names the state of a library's stats: a digest of every entry's counters, so equal stats give the same revision
 * and any credit that changes them gives another. Actors key their cached snapshots by it (with the version), and
 * so reload a version exactly when the stats they rank by have changed.
 */
export function statsRevision(experiences: readonly Experience[]): string {
  const hash = createHash("sha256");
  for (const entry of [...experiences].sort((a, b) => compareExperienceIds(a.id, b.id))) {
    const { shown, success, sumDelta, lastUsedVersion, contrast } = entry.stats;
    const contrasts = contrast ? ` ${contrast.n} ${contrast.sum} ${contrast.sumSquares}` : "";
    hash.update(`${entry.id} ${shown} ${success} ${sumDelta} ${lastUsedVersion ?? "-"}${contrasts}\n`);
  }
  return `stats-${hash.digest("hex").slice(0, 16)}`;
}
