/**
 * τ²-bench's pass^k from n trials of a task of which c succeeded: the unbiased estimate of the chance that k
 * independent trials all succeed, C(c, k) / C(n, k), as a product (no large binomials).
 */
export function passHatK(n: number, c: number, k: number): number {
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
      `passHatK needs integers with 0 <= c <= n, n >= 1, k >= 1 (got n=${n}, c=${c}, k=${k})`,
    );
  }
  if (k > n) throw new RangeError(`passHatK: k=${k} is larger than the n=${n} trials taken`);
  let estimate = 1;
  for (let i = 0; i < k; i++) estimate *= (c - i) / (n - i);
  return Math.max(0, estimate);
}

/** The k of pass^k reported: 1..4 (τ²'s leaderboard), at most the trials each task had. */
export const passHatKs = (trials: number) => Array.from({ length: Math.min(4, trials) }, (_, i) => i + 1);

/**
 * Whether an evaluation reports pass^k: tasks of a stateful, conversational domain (a user scenario, as τ²-bench's),
 * or tasks that ask for it (`meta.passHat: true`).
 */
export const reportsPassHat = (tasks: readonly { meta?: Record<string, unknown> | undefined }[]) =>
  tasks.some((task) => typeof task.meta?.userScenario === "string" || task.meta?.passHat === true);
