/**
 * Makespan, in model-call units, of chains of sequential calls on `slots` parallel slots, each chain taken in order
 * by the earliest free slot (what a bounded work queue does). A chain holds its slot from first call to last.
 */
export function makespan(chains: readonly number[], slots: number): number {
  const free = new Array<number>(Math.max(1, slots)).fill(0);
  for (const length of chains) {
    let best = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[best]!) best = i;
    free[best]! += length;
  }
  return Math.max(...free);
}
