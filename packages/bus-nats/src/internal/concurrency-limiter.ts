/** Runs at most `concurrency` tasks at once; the rest wait in order. */
export interface ConcurrencyLimiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createConcurrencyLimiter(concurrency: number): ConcurrencyLimiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  let active = 0;
  const queue: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      // A waiter is handed its slot by the task that frees it (`active` is never lowered in between), so a caller
      // arriving while the waiter has yet to resume finds the slot taken and queues behind it.
      if (active >= concurrency) await new Promise<void>((resolve) => queue.push(resolve));
      else active++;
      try {
        return await task();
      } finally {
        const next = queue.shift();
        if (next) next();
        else active--;
      }
    },
  };
}
