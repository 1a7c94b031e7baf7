/**
 * Unbiased Pass@k from n samples of which c are correct: 1 - C(n-c, k) / C(n, k) (Chen et al., 2021),
 * computed as a product so large n does not overflow.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (
    !Number.isInteger(n) ||
    !Number.isInteger(c) ||
    !Number.isInteger(k) ||
    n < 1 ||
    k < 1 ||
    c < 0 ||
    c > n
  ) {
    throw new RangeError(
      `passAtK needs integers with 0 <= c <= n, n >= 1, k >= 1 (got n=${n}, c=${c}, k=${k})`,
    );
  }
  if (k > n) throw new RangeError(`passAtK: k=${k} is larger than the n=${n} samples taken`);
  if (n - c < k) return 1;
  let allWrong = 1;
  for (let i = n - c + 1; i <= n; i++) allWrong *= 1 - k / i;
  return 1 - allWrong;
}

/**
 * Mean@k as the paper reports it: the average reward over k samples (a mean Pass@1), where partial credit counts as given.
 */
export function meanAtK(rewards: readonly number[]): number {
  if (rewards.length === 0) throw new RangeError("meanAtK needs at least one sample");
  return rewards.reduce((sum, r) => sum + r, 0) / rewards.length;
}
