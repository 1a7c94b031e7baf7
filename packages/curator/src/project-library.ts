import {
  type Experience,
  type ExperienceStats,
  emptyExperienceStats,
  type Operation,
} from "@tfgrpo/protocol";
import type { ConflictEntry } from "./detect-conflict-pairs.js";

export interface ProjectedEntry extends ConflictEntry {
  /** Index of the operation that created or rewrote the entry; undefined for untouched entries. */
  opIndex?: number;
  /** New in this operation set (add or merge). */
  created: boolean;
  /** Text rewritten in this operation set. */
  rewritten: boolean;
}

const rank = { active: 3, probation: 2, candidate: 1, archived: 0 } as const;

/**
 * The live entries of the library as they will be after an operation set (same rules as the store: delete and merge
 * archive their sources, a merged entry takes the best status and the summed stats of its sources). Used to check the
 * result for conflicts before anything is written.
 */
export function projectLibrary(
  library: readonly Experience[],
  operations: readonly Operation[],
): ProjectedEntry[] {
  const live = new Map<string, ProjectedEntry>();
  for (const entry of library) {
    if (entry.status === "archived") continue;
    live.set(entry.id, {
      key: entry.id,
      label: entry.id,
      text: entry.text,
      status: entry.status,
      stats: entry.stats,
      ...(entry.conflictGroup !== undefined ? { conflictGroup: entry.conflictGroup } : {}),
      created: false,
      rewritten: false,
    });
  }
  let created = 0;
  operations.forEach((op, opIndex) => {
    switch (op.op) {
      case "add":
        created++;
        live.set(`new:${opIndex}`, {
          key: `new:${opIndex}`,
          label: `N${created}`,
          text: op.text,
          status: op.status ?? "candidate",
          stats: emptyExperienceStats(),
          ...(op.conflictGroup !== undefined ? { conflictGroup: op.conflictGroup } : {}),
          opIndex,
          created: true,
          rewritten: false,
        });
        return;
      case "modify": {
        const entry = live.get(op.id);
        if (!entry) return;
        if (op.text !== undefined && op.text !== entry.text) {
          entry.text = op.text;
          entry.rewritten = true;
          entry.opIndex = opIndex;
        }
        if (op.status === "archived") live.delete(op.id);
        else if (op.status !== undefined) entry.status = op.status;
        if (op.conflictGroup === null) delete entry.conflictGroup;
        else if (op.conflictGroup !== undefined) entry.conflictGroup = op.conflictGroup;
        return;
      }
      case "delete":
        live.delete(op.id);
        return;
      case "merge": {
        const sources = op.ids.map((id) => live.get(id)).filter((entry): entry is ProjectedEntry => !!entry);
        for (const id of op.ids) live.delete(id);
        const stats: ExperienceStats = sources.reduce(
          (sum, entry) => ({
            shown: sum.shown + entry.stats.shown,
            success: sum.success + entry.stats.success,
            sumDelta: sum.sumDelta + entry.stats.sumDelta,
            lastUsedVersion:
              Math.max(sum.lastUsedVersion ?? -1, entry.stats.lastUsedVersion ?? -1) < 0
                ? null
                : Math.max(sum.lastUsedVersion ?? -1, entry.stats.lastUsedVersion ?? -1),
          }),
          emptyExperienceStats(),
        );
        const status =
          op.status ??
          sources.reduce<ProjectedEntry["status"]>(
            (best, entry) => (rank[entry.status] > rank[best] ? entry.status : best),
            "candidate",
          );
        created++;
        live.set(`new:${opIndex}`, {
          key: `new:${opIndex}`,
          label: `N${created}`,
          text: op.text,
          status,
          stats,
          opIndex,
          created: true,
          rewritten: false,
        });
        return;
      }
      case "keep":
        return;
    }
  });
  return [...live.values()];
}
