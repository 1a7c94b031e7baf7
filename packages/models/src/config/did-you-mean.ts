/** The closest candidate to a mistyped word, if one is close enough to be a plausible typo. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const a = word.toLowerCase();
    const b = candidate.toLowerCase();
    // A shortened or extended name (`apiKey` for `apiKeyEnv`) is as likely a slip as a typo.
    const isAffix = a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a));
    const distance = a === b ? 0 : isAffix ? 1 : editDistance(a, b);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(1, Math.floor(word.length / 3));
  return bestDistance <= tolerance ? best : undefined;
}

/** Damerau-Levenshtein (optimal string alignment): a swapped pair of letters is one typo, not two. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[] = new Array(rows * columns).fill(0);
  const at = (i: number, j: number) => table[i * columns + j] ?? 0;
  for (let i = 0; i < rows; i++) table[i * columns] = i;
  for (let j = 0; j < columns; j++) table[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      table[i * columns + j] = value;
    }
  }
  return at(a.length, b.length);
}
