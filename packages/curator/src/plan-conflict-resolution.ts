import {
  type ContrastInterval,
  contrastOf,
  contrastSequence,
  defaultDecisionThresholds,
  defaultSequenceOptions,
  entryContrast,
  formatContrast,
  meanDelta,
} from "@tfgrpo/protocol";
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
 * Resolves or flags conflicting pairs (seed 002 5.2): when both entries have evidence and one clearly does better,
 * the worse one is archived; otherwise both go into one mutual-exclusion group, so the actor shows at most one of them
 * while evidence accumulates. Groups that touch merge, keeping an existing name.
 * The evidence is each entry's controlled contrast: both need `minContrasts` groups, the better one must lead by
 * `margin`, and its confidence sequence (`contrastSequence`, each side at alpha / 2) must lie wholly above the worse
 * one's, so a wrong resolution has probability at most `alpha` however often the pair is looked at. Entries
 * without contrasts (exposure off) fall back to the mean delta over `minEvidence` showings.
 */
export function planConflictResolution(input: {
  entries: readonly ConflictEntry[];
  pairs: readonly ConflictPair[];
  minEvidence: number;
  /** Groups with both arms each entry's contrast needs before it can decide. */
  minContrasts?: number;
  margin: number;
  /** Error level of a resolution over all looks (default the lifecycle's, 0.05). */
  alpha?: number;
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
  const minContrasts = input.minContrasts ?? input.minEvidence;
  const alpha = input.alpha ?? defaultDecisionThresholds.alpha;
  // Each side's confidence sequence at alpha / 2: both hold at every look together with probability 1 - alpha, and
  // then the better one's lower bound above the worse one's upper bound means the order is right.
  const sequence = (entry: ConflictEntry) =>
    contrastSequence(contrastOf(entry.stats), { ...defaultSequenceOptions, alpha: alpha / 2 });
  function clearlyApart(a: ConflictEntry, b: ConflictEntry): boolean {
    const [x, y] = [sequence(a), sequence(b)];
    if (x.n > 0 || y.n > 0) {
      if (x.n < minContrasts || y.n < minContrasts) return false;
      return x.lower > y.upper || y.lower > x.upper;
    }
    return a.stats.shown >= input.minEvidence && b.stats.shown >= input.minEvidence;
  }
  for (const pair of ordered) {
    if (archived.has(pair.a) || archived.has(pair.b)) continue;
    const a = entries[pair.a]!;
    const b = entries[pair.b]!;
    const decidable =
      canResolve(pair.a) && canResolve(pair.b) && gap(pair) >= input.margin && clearlyApart(a, b);
    if (decidable) {
      const [worse, better] = meanDelta(a.stats) < meanDelta(b.stats) ? [pair.a, pair.b] : [pair.b, pair.a];
      const w = entries[worse]!;
      const k = entries[better]!;
      archived.add(worse);
      archive.push({
        index: worse,
        reason: `conflicts with ${k.label}, which does better (${evidenceOf(k, sequence)} vs ${evidenceOf(w, sequence)}${entryContrast(k.stats).n > 0 ? `; ${Math.round((1 - alpha) * 100)}% confidence sequences apart` : ""}): ${pair.reason}`,
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

/** "contrast +0.200 [+0.05, ...] over 9 groups" (the sequence's bounds), or the mean delta without a contrast. */
function evidenceOf(entry: ConflictEntry, sequence: (entry: ConflictEntry) => ContrastInterval): string {
  const interval = sequence(entry);
  if (interval.n > 0) return `contrast ${formatContrast(interval)}`;
  return `mean delta ${meanDelta(entry.stats).toFixed(3)} over ${entry.stats.shown}`;
}
