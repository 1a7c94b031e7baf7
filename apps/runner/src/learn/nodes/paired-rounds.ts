/** One round of the sequential gate (what `@tfgrpo/curator`'s ValidationRound reads). */
export interface PairedRound {
  candidate: number[];
  head: number[];
}

/**
 * The sequential gate's rounds from per-attempt validation rewards (`[candidate, head]`, per task, per attempt):
 * round `a` pairs the two versions' attempt `a` (the same seed) on every task where both have a task-level reward;
 * a task whose attempt failed on the infrastructure sits that round out. Rounds with no pair are left out.
 * Also each task's mean over its pairs (the scores a decision reports), for tasks with at least one pair.
 */
export function pairedRounds(
  attemptRewards: readonly (readonly (readonly (number | null)[])[])[],
  rounds: number,
): { rounds: PairedRound[]; candidateScores: number[]; headScores: number[] } {
  const [candidate = [], head = []] = attemptRewards;
  const taken: PairedRound[] = [];
  const sums = candidate.map(() => ({ candidate: 0, head: 0, pairs: 0 }));
  for (let attempt = 0; attempt < rounds; attempt++) {
    const round: PairedRound = { candidate: [], head: [] };
    candidate.forEach((attempts, task) => {
      const mine = attempts[attempt];
      const theirs = head[task]?.[attempt];
      if (mine === null || mine === undefined || theirs === null || theirs === undefined) return;
      round.candidate.push(mine);
      round.head.push(theirs);
      const sum = sums[task]!;
      sum.candidate += mine;
      sum.head += theirs;
      sum.pairs++;
    });
    if (round.candidate.length > 0) taken.push(round);
  }
  const scored = sums.filter((sum) => sum.pairs > 0);
  return {
    rounds: taken,
    candidateScores: scored.map((sum) => sum.candidate / sum.pairs),
    headScores: scored.map((sum) => sum.head / sum.pairs),
  };
}
