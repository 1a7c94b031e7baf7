/** τ²'s pass^k over tasks: mean of C(c,k)/C(n,k), for k = 1..min(4, n). */
export function passHat(perTask: readonly number[][], trials: number): number[] {
  return Array.from({ length: Math.min(4, trials) }, (_, i) => {
    const k = i + 1;
    const values = perTask.map((rewards) => {
      const c = rewards.filter((r) => r >= 1).length;
      let p = 1;
      for (let j = 0; j < k; j++) p *= (c - j) / (rewards.length - j);
      return Math.max(0, p);
    });
    return values.reduce((a, b) => a + b, 0) / values.length;
  });
}
