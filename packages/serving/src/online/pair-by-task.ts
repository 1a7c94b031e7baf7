import { cosine } from "./neighbourhood-groups.js";
import type { OnlineOutcome } from "./online-outcome.js";

export interface TaskPairing {
  /** Rewards of the candidate's outcomes, in their order. */
  candidateScores: number[];
  /** For each, the reward of the head's outcome on the most similar task served meanwhile. */
  headScores: number[];
  /** Mean task similarity of the pairs (1 = the same task text). */
  meanSimilarity: number;
  /** Pairs whose head outcome had already been paired (more candidate outcomes than head outcomes). */
  reused: number;
}

/**
 * Live traffic never serves one task to both versions, so the gate's paired comparison pairs each canary outcome
 * with the head's outcome on the most similar task served in the same period (each head outcome once while any is
 * left). The gate then reads the pairs as it reads paired validation scores offline.
 */
export function pairByTask(
  candidate: readonly OnlineOutcome[],
  head: readonly OnlineOutcome[],
  vectors: ReadonlyMap<string, ArrayLike<number>>,
): TaskPairing {
  const pairing: TaskPairing = { candidateScores: [], headScores: [], meanSimilarity: 0, reused: 0 };
  if (candidate.length === 0 || head.length === 0) return pairing;
  const free = new Set(head.map((_, index) => index));
  let similaritySum = 0;
  for (const outcome of candidate) {
    const vector = vectors.get(outcome.task);
    let best = -1;
    let bestSimilarity = Number.NEGATIVE_INFINITY;
    const pool = free.size > 0 ? [...free] : head.map((_, index) => index);
    for (const index of pool) {
      const other = vectors.get(head[index]!.task);
      const similarity = vector && other ? cosine(vector, other) : 0;
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = index;
      }
    }
    if (free.size === 0) pairing.reused++;
    free.delete(best);
    similaritySum += bestSimilarity;
    pairing.candidateScores.push(outcome.reward);
    pairing.headScores.push(head[best]!.reward);
  }
  pairing.meanSimilarity = similaritySum / candidate.length;
  return pairing;
}
