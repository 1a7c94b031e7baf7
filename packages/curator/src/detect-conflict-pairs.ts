import type { ExperienceStats, ExperienceStatus } from "@tfgrpo/protocol";
import { findOppositePhrasings, instructionSignatures, oppositeAction } from "./opposite-phrasings.js";
import {
  createSimilarityIndex,
  type SimilarityIndex,
  type SimilarityIndexOptions,
} from "./similarity-index.js";

export interface ConflictEntry {
  /** Library id, or a stable key for an entry not yet written (`new:3`). */
  key: string;
  /** How the entry is named to the model (G3, N1). */
  label: string;
  text: string;
  status: ExperienceStatus;
  stats: ExperienceStats;
  conflictGroup?: string;
}

export interface ConflictPair {
  a: number;
  b: number;
  similarity: number;
  source: "rule" | "model";
  reason: string;
}

export type ConflictCheck = (
  a: ConflictEntry,
  b: ConflictEntry,
) => Promise<{ conflict: boolean; reason: string }>;

export interface DetectConflictPairsInput {
  entries: readonly ConflictEntry[];
  vectors: readonly ArrayLike<number>[];
  /** Only pairs with at least one focused entry are examined (new or changed entries); all when absent. */
  focus?: (index: number) => boolean;
  topicSimilarity: number;
  ruleScanMinSimilarity: number;
  neighbours: number;
  maxModelChecks: number;
  /** The model check; without it, embedding-only candidates stay unchecked (rule-scan conflicts still count). */
  check?: ConflictCheck;
  concurrency?: number;
  index?: SimilarityIndexOptions;
  /** A prebuilt index over `vectors` (same order). */
  prebuiltIndex?: SimilarityIndex;
}

export interface DetectConflictPairsResult {
  pairs: ConflictPair[];
  /** Candidate pairs found by similarity but left unchecked (no model, or over the check budget). */
  unchecked: number;
  modelChecks: number;
  candidates: number;
}

/**
 * Finds pairs of entries that may contradict without comparing every pair:
 * - the rule scan (inverted index on actions) finds opposite phrasings ("always X" / "never X"), which count as
 *   conflicts when the texts are on the same topic (similarity >= topicSimilarity), and go first to the model check
 *   when they are only loosely related (>= ruleScanMinSimilarity);
 * - the similarity index gives each focused entry its nearest same-topic neighbours, which a model checks, most
 *   suspicious first (a weak opposite hint, then similarity), within a budget of model calls.
 * Entries already in the same conflict group are not re-examined.
 */
export async function detectConflictPairs(
  input: DetectConflictPairsInput,
): Promise<DetectConflictPairsResult> {
  const { entries } = input;
  const focus = input.focus ?? (() => true);
  const inFocus = (a: number, b: number) => {
    if (!focus(a) && !focus(b)) return false;
    const groupA = entries[a]!.conflictGroup;
    return groupA === undefined || groupA !== entries[b]!.conflictGroup;
  };
  if (entries.length < 2) return { pairs: [], unchecked: 0, modelChecks: 0, candidates: 0 };
  const index = input.prebuiltIndex ?? createSimilarityIndex(input.vectors, input.index);
  const signatures = entries.map((entry) => instructionSignatures(entry.text));

  const pairs: ConflictPair[] = [];
  const taken = new Set<string>();
  // Opposite phrasings on a clearly shared topic are conflicts outright; on a looser one ("When A, always X" vs
  // "When B, never X") they go to the model check first in line.
  const ruleHints: { a: number; b: number; similarity: number; hint: string | null }[] = [];
  for (const hit of findOppositePhrasings(signatures, { accept: inFocus })) {
    const similarity = index.similarity(hit.a, hit.b);
    if (similarity < input.ruleScanMinSimilarity) continue;
    taken.add(`${hit.a}:${hit.b}`);
    if (similarity < input.topicSimilarity) {
      ruleHints.push({ a: hit.a, b: hit.b, similarity, hint: hit.action });
      continue;
    }
    pairs.push({
      a: hit.a,
      b: hit.b,
      similarity,
      source: "rule",
      reason: `opposite instructions on "${hit.action}" (rule scan, similarity ${similarity.toFixed(2)})`,
    });
  }

  const similar = index
    .pairs({ threshold: input.topicSimilarity, accept: inFocus, maxPerItem: input.neighbours })
    .filter((pair) => !taken.has(`${pair.a}:${pair.b}`))
    .map((pair) => ({ ...pair, hint: oppositeAction(signatures[pair.a]!, signatures[pair.b]!, "weak") }))
    .sort((x, y) => Number(y.hint !== null) - Number(x.hint !== null) || y.similarity - x.similarity);
  const candidates = [...ruleHints.sort((x, y) => y.similarity - x.similarity), ...similar];
  const budget = input.check ? Math.min(input.maxModelChecks, candidates.length) : 0;
  const toCheck = candidates.slice(0, budget);
  let next = 0;
  const worker = async () => {
    while (next < toCheck.length) {
      const pair = toCheck[next++]!;
      const verdict = await input.check!(entries[pair.a]!, entries[pair.b]!);
      if (verdict.conflict) {
        pairs.push({
          a: pair.a,
          b: pair.b,
          similarity: pair.similarity,
          source: "model",
          reason: `${verdict.reason || "contradictory instructions"} (model check, similarity ${pair.similarity.toFixed(2)})`,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, input.concurrency ?? 4) }, worker));
  pairs.sort((x, y) => x.a - y.a || x.b - y.b);
  return {
    pairs,
    unchecked: candidates.length - budget,
    modelChecks: budget,
    candidates: candidates.length + taken.size - ruleHints.length,
  };
}
