import type { OnlineConfig } from "./online-config.js";

export interface GroupCandidate {
  /** Unique per outcome (the selection id). */
  key: string;
  task: string;
  success: boolean;
}

export interface NeighbourhoodGroup<T extends GroupCandidate> {
  /** The failure the group is centred on. */
  centre: T;
  /** Centre first, then its neighbours from most to least similar. */
  members: T[];
  /** Similarity of each member to the centre, in member order (1 for the centre). */
  similarities: number[];
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Groups from live traffic: there are no G attempts of one task online, so each group is a failed task with its
 * nearest neighbours by task embedding (at least `minSimilarity`), kept only when it holds both a success and a
 * failure (a contrast to learn from). Newest failures are centred first; a failure already inside an earlier
 * group does not centre another, so the groups cover different failures. At most `maxGroups`.
 */
export function neighbourhoodGroups<T extends GroupCandidate>(
  outcomes: readonly T[],
  vectors: ReadonlyMap<string, ArrayLike<number>>,
  config: OnlineConfig["groups"],
): NeighbourhoodGroup<T>[] {
  const vectorOf = (item: T) => {
    const vector = vectors.get(item.task);
    if (!vector) throw new Error(`neighbourhoodGroups: no embedding for the task of ${item.key}`);
    return vector;
  };
  const covered = new Set<string>();
  const groups: NeighbourhoodGroup<T>[] = [];
  const failures = outcomes.filter((item) => !item.success).reverse();
  for (const centre of failures) {
    if (groups.length >= config.maxGroups) break;
    if (covered.has(centre.key)) continue;
    const centreVector = vectorOf(centre);
    const near = outcomes
      .filter((item) => item.key !== centre.key)
      .map((item) => ({ item, similarity: cosine(centreVector, vectorOf(item)) }))
      .filter((scored) => scored.similarity >= config.minSimilarity)
      .sort((a, b) => b.similarity - a.similarity);
    // Both sides: the nearest successes and the nearest other failures, the successes first so a busy
    // neighbourhood of failures cannot crowd out the contrast.
    const successes = near.filter((scored) => scored.item.success);
    if (successes.length === 0) continue;
    const half = Math.max(1, Math.ceil(config.neighbours / 2));
    const chosen = [
      ...successes.slice(0, half),
      ...near
        .filter((scored) => !scored.item.success)
        .slice(0, config.neighbours - Math.min(half, successes.length)),
    ];
    if (chosen.length < config.neighbours)
      chosen.push(...successes.slice(half, half + config.neighbours - chosen.length));
    chosen.sort((a, b) => b.similarity - a.similarity);
    const members = [centre, ...chosen.map((scored) => scored.item)];
    for (const member of members) if (!member.success) covered.add(member.key);
    groups.push({ centre, members, similarities: [1, ...chosen.map((scored) => scored.similarity)] });
  }
  return groups;
}
