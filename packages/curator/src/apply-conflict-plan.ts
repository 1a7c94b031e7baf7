import type { Experience, Operation } from "@tfgrpo/protocol";
import type { ConflictResolutionPlan } from "./plan-conflict-resolution.js";
import type { ProjectedEntry } from "./project-library.js";

const rank = { active: 3, probation: 2, candidate: 1, archived: 0 } as const;

/**
 * Writes a conflict plan into an operation set: archived losers become deletes, group assignments go onto the add or
 * modify that already touches the entry, or into a new modify. A merge result cannot carry a conflict group (the
 * merge operation has no such field), so a merge whose result must join a group is written as a rewrite of its best
 * source plus deletes of the others: the same library, with the group set.
 */
export function applyConflictPlan(
  operations: readonly Operation[],
  projected: readonly ProjectedEntry[],
  plan: ConflictResolutionPlan,
  library: ReadonlyMap<string, Experience>,
): { operations: Operation[]; notes: string[] } {
  const out: (Operation | Operation[])[] = [...operations];
  const notes: string[] = [];
  const extra: Operation[] = [];
  for (const { index, reason } of plan.archive) {
    const entry = projected[index]!;
    extra.push({ op: "delete", id: entry.key, reason });
    notes.push(`${entry.label} archived: ${reason}`);
  }
  for (const [index, { group, reason }] of plan.assignments) {
    const entry = projected[index]!;
    notes.push(`${entry.label} -> conflict group ${group}: ${reason}`);
    if (entry.opIndex === undefined) {
      extra.push({ op: "modify", id: entry.key, conflictGroup: group, reason });
      continue;
    }
    const op = operations[entry.opIndex]!;
    if (op.op === "add") out[entry.opIndex] = { ...op, conflictGroup: group };
    else if (op.op === "modify") out[entry.opIndex] = { ...op, conflictGroup: group };
    else if (op.op === "merge") {
      const sources = op.ids
        .map((id) => library.get(id))
        .filter((source): source is Experience => !!source)
        .sort((a, b) => rank[b.status] - rank[a.status] || b.stats.shown - a.stats.shown);
      const keep = sources[0]!;
      out[entry.opIndex] = [
        { op: "modify", id: keep.id, text: op.text, conflictGroup: group, reason: `${op.reason}; ${reason}` },
        ...sources.slice(1).map((source) => ({
          op: "delete" as const,
          id: source.id,
          reason: `merged into ${keep.id}: ${op.reason}`,
        })),
      ];
      notes.push(`merge of ${op.ids.join(", ")} written as a rewrite of ${keep.id} so it can join ${group}`);
    }
  }
  // A keep next to a modify or delete of the same id is a contradiction for the store; the change wins.
  const touched = new Set(extra.map((op) => (op.op === "modify" || op.op === "delete" ? op.id : "")));
  const merged = out.flat().filter((op) => op.op !== "keep" || !touched.has(op.id));
  return { operations: [...merged, ...extra], notes };
}
