export interface MajorityVote {
  /** The representative answer of the largest cluster (its first occurrence), or null when no one answered. */
  label: string | null;
  /** Answers in the winning cluster. */
  count: number;
  /** Non-null answers that took part. */
  voters: number;
  /** Another cluster was as large: the label is the earliest of them, and weak. */
  tie: boolean;
}

/**
 * The group's majority answer, used as a pseudo-label when a task has no ground truth (the paper's no-GT variant).
 * Answers are clustered by `equivalent` (e.g. the math verifier, so 0.5 and \frac{1}{2} vote together).
 */
export function majorityVote(
  answers: readonly (string | null)[],
  equivalent: (a: string, b: string) => boolean,
): MajorityVote {
  const clusters: { label: string; count: number }[] = [];
  let voters = 0;
  for (const answer of answers) {
    if (answer === null || answer.trim() === "") continue;
    voters++;
    const cluster = clusters.find((candidate) => equivalent(candidate.label, answer));
    if (cluster) cluster.count++;
    else clusters.push({ label: answer, count: 1 });
  }
  if (clusters.length === 0) return { label: null, count: 0, voters: 0, tie: false };
  let best = clusters[0]!;
  for (const cluster of clusters) if (cluster.count > best.count) best = cluster;
  const tie = clusters.filter((cluster) => cluster.count === best.count).length > 1;
  return { label: best.label, count: best.count, voters, tie };
}
