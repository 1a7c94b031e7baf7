/**
 * Splits a group that is too large for one prompt into pieces within `capacity`, keeping its most similar members
 * together: each piece starts from the most central member left (highest total similarity to the rest) and grows by
 * the member most similar on average to the piece, while it fits. Costs are summed per member (shared context is
 * counted for each member, so a piece is never larger than estimated). A member larger than the capacity alone gets a
 * piece of its own. Deterministic: ties break by member order.
 */
export function splitBySimilarity(
  members: readonly number[],
  options: {
    similarity: (a: number, b: number) => number;
    cost: (member: number) => number;
    capacity: number;
  },
): number[][] {
  const total = members.reduce((sum, member) => sum + options.cost(member), 0);
  if (total <= options.capacity || members.length <= 1) return [[...members]];
  const left = [...members];
  const pieces: number[][] = [];
  while (left.length > 0) {
    let seedAt = 0;
    let seedScore = Number.NEGATIVE_INFINITY;
    left.forEach((member, at) => {
      let score = 0;
      for (const other of left) if (other !== member) score += options.similarity(member, other);
      if (score > seedScore) [seedAt, seedScore] = [at, score];
    });
    const piece = [left.splice(seedAt, 1)[0]!];
    let used = options.cost(piece[0]!);
    // Running sums of similarity to the piece, so growing a piece of m members costs O(m * left).
    const toPiece = left.map((member) => options.similarity(member, piece[0]!));
    for (;;) {
      let bestAt = -1;
      for (let at = 0; at < left.length; at++) {
        if (used + options.cost(left[at]!) > options.capacity) continue;
        if (bestAt < 0 || toPiece[at]! > toPiece[bestAt]!) bestAt = at;
      }
      if (bestAt < 0) break;
      const [added] = left.splice(bestAt, 1);
      toPiece.splice(bestAt, 1);
      piece.push(added!);
      used += options.cost(added!);
      for (let at = 0; at < left.length; at++) toPiece[at]! += options.similarity(left[at]!, added!);
    }
    pieces.push(piece.sort((a, b) => members.indexOf(a) - members.indexOf(b)));
  }
  return pieces;
}
