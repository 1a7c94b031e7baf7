import { meanDelta } from "@tfgrpo/protocol";
import type { ConflictEntry, ConflictPair } from "./detect-conflict-pairs.js";
import { fnv1a } from "./hashing-embedder.js";
import { createUnionFind } from "./union-find.js";

export interface ConflictResolutionPlan {
  /** Entries to archive: the clearly worse side of a conflict. */
  archive: { index: number; reason: string }[];
  /** New conflict group per entry index (only entries whose group changes). */
  assignments: Map<number, { group: string; reason: string }>;
  /** Conflict groups touched, with their members. */
  groups: { name: string; members: number[] }[];
}

/**
 * Resolves or flags conflicting pairs (seed 002 5.2): when both entries have evidence and one clearly does better
 * (mean delta ahead by `margin`), the worse one is archived; otherwise both go into one mutual-exclusion group, so the
 * actor shows at most one of them while evidence accumulates. Groups that touch merge, keeping an existing name.
 */
export function planConflictResolution(input: {
  entries: readonly ConflictEntry[];
  pairs: readonly ConflictPair[];
  minEvidence: number;
  margin: number;
  /** Whether an entry's evidence can decide (e.g. not for entries new or rewritten in this batch). */
  canResolve?: (index: number) => boolean;
}): ConflictResolutionPlan {
  const { entries } = input;
  const canResolve = input.canResolve ?? (() => true);
  const archived = new Set<number>();
  const archive: ConflictResolutionPlan["archive"] = [];
  const union = createUnionFind(entries.length);
  const why = new Map<number, string>();
  const flagged: ConflictPair[] = [];

  // The clearest cases first, so one strong resolution is not pre-empted by a marginal one.
  const ordered = [...input.pairs].sort((x, y) => gap(y) - gap(x));
  function gap(pair: ConflictPair): number {
    return Math.abs(meanDelta(entries[pair.a]!.stats) - meanDelta(entries[pair.b]!.stats));
  }
  for (const pair of ordered) {
    if (archived.has(pair.a) || archived.has(pair.b)) continue;
    const a = entries[pair.a]!;
    const b = entries[pair.b]!;
    const decidable =
      canResolve(pair.a) &&
      canResolve(pair.b) &&
      a.stats.shown >= input.minEvidence &&
      b.stats.shown >= input.minEvidence &&
      gap(pair) >= input.margin;
    if (decidable) {
      const [worse, better] = meanDelta(a.stats) < meanDelta(b.stats) ? [pair.a, pair.b] : [pair.b, pair.a];
      const w = entries[worse]!;
      const k = entries[better]!;
      archived.add(worse);
      archive.push({
        index: worse,
        reason: `conflicts with ${k.label}, which does better (mean delta ${meanDelta(k.stats).toFixed(3)} over ${k.stats.shown} vs ${meanDelta(w.stats).toFixed(3)} over ${w.stats.shown}): ${pair.reason}`,
      });
      continue;
    }
    flagged.push(pair);
  }
  for (const pair of flagged) {
    if (archived.has(pair.a) || archived.has(pair.b)) continue;
    union.union(pair.a, pair.b);
    for (const [self, other] of [
      [pair.a, pair.b],
      [pair.b, pair.a],
    ] as const) {
      if (!why.has(self)) why.set(self, `may contradict ${entries[other]!.label}: ${pair.reason}`);
    }
  }

  // Existing groups a component touches are folded into one name (the smallest), with all their other members.
  const assignments: ConflictResolutionPlan["assignments"] = new Map();
  const groups: ConflictResolutionPlan["groups"] = [];
  const membersOf = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    if (entry.conflictGroup === undefined || archived.has(index)) return;
    const list = membersOf.get(entry.conflictGroup) ?? [];
    list.push(index);
    membersOf.set(entry.conflictGroup, list);
  });
  for (const component of union.groups(2)) {
    const existing = [
      ...new Set(
        component.map((index) => entries[index]!.conflictGroup).filter((g): g is string => g !== undefined),
      ),
    ].sort();
    const name =
      existing[0] ??
      `cg-${fnv1a(
        component
          .map((index) => entries[index]!.text)
          .sort()
          .join("\n"),
      ).toString(36)}`;
    const members = new Set(component);
    for (const group of existing) for (const index of membersOf.get(group) ?? []) members.add(index);
    for (const index of members) {
      if (entries[index]!.conflictGroup === name) continue;
      assignments.set(index, {
        group: name,
        reason: why.get(index) ?? `conflict group ${entries[index]!.conflictGroup} joined ${name}`,
      });
    }
    groups.push({ name, members: [...members].sort((x, y) => x - y) });
  }
  return { archive, assignments, groups };
}
