import { createSimilarityIndex, type SimilarityIndex } from "./similarity-index.js";
import { createUnionFind } from "./union-find.js";

export interface GroupBySimilarityOptions {
  /** Two groups can join only through a pair of members at least this similar (cosine). */
  threshold: number;
  /**
   * ... and only when their members are, on average over all cross pairs, at least this similar (default
   * 0.75 x threshold), so a chain of loosely similar texts does not pull two topics into one group.
   */
  cohesion?: number;
  /** Items with the same key start in one group (e.g. suggestions that rewrite the same library entry). */
  keyOf?: (index: number) => string | undefined;
  /** Seed of the similarity index used for large inputs. */
  seed?: number;
  /** Up to this many items every pair is compared exactly; above it, pairs come from the LSH index (default 600). */
  exactUpTo?: number;
}

export interface SimilarityGroups {
  /** Groups of item indices, each sorted, ordered by their smallest member. */
  groups: number[][];
  /** The index the groups were built on (exact cosine of any two items, for callers that split or order groups). */
  index: SimilarityIndex;
}

/**
 * Groups items by meaning (their embeddings), so that paraphrases of one idea end up together whatever order they
 * arrived in: a deterministic greedy agglomeration close to average linkage. Pairs at or above `threshold` are taken
 * from the most similar down; a pair joins its two groups when the groups' mean cross similarity is at least
 * `cohesion`. Ties break by item index, so the same input always gives the same groups.
 */
export function groupBySimilarity(
  vectors: readonly ArrayLike<number>[],
  options: GroupBySimilarityOptions,
): SimilarityGroups {
  const size = vectors.length;
  const index = createSimilarityIndex(vectors, { seed: options.seed ?? 17 });
  const union = createUnionFind(size);
  const members = new Map<number, number[]>();
  for (let item = 0; item < size; item++) members.set(item, [item]);
  const join = (a: number, b: number) => {
    const rootA = union.find(a);
    const rootB = union.find(b);
    if (rootA === rootB) return;
    const merged = [...members.get(rootA)!, ...members.get(rootB)!];
    members.delete(rootA);
    members.delete(rootB);
    union.union(rootA, rootB);
    members.set(union.find(rootA), merged);
  };
  if (options.keyOf) {
    const first = new Map<string, number>();
    for (let item = 0; item < size; item++) {
      const key = options.keyOf(item);
      if (key === undefined) continue;
      const seen = first.get(key);
      if (seen === undefined) first.set(key, item);
      else join(seen, item);
    }
  }
  if (size > 1) {
    const { threshold } = options;
    const cohesion = options.cohesion ?? threshold * 0.75;
    const pairs: { a: number; b: number; similarity: number }[] = [];
    if (size <= (options.exactUpTo ?? 600)) {
      for (let a = 0; a < size; a++)
        for (let b = a + 1; b < size; b++) {
          const similarity = index.similarity(a, b);
          if (similarity >= threshold) pairs.push({ a, b, similarity });
        }
      pairs.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
    } else pairs.push(...index.pairs({ threshold, maxPerItem: 12 }));
    for (const pair of pairs) {
      const rootA = union.find(pair.a);
      const rootB = union.find(pair.b);
      if (rootA === rootB) continue;
      const left = members.get(rootA)!;
      const right = members.get(rootB)!;
      let sum = 0;
      for (const x of left) for (const y of right) sum += index.similarity(x, y);
      if (sum / (left.length * right.length) >= cohesion) join(pair.a, pair.b);
    }
  }
  return { groups: union.groups(1), index };
}
