import { describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "./concurrency-limiter.js";

describe("createConcurrencyLimiter", () => {
  it("never runs more than its concurrency and starts waiting tasks in order", async () => {
    const limiter = createConcurrencyLimiter(2);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const tasks = [0, 1, 2, 3].map((index) =>
      limiter.run(async () => {
        started.push(index);
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return index;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect(limiter.waiting).toBe(2);
    while (releases.length > 0 || started.length < 4) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
  });

  it("hands a freed slot to the waiter: a caller arriving in between waits its turn", async () => {
    // The freed slot must go to the first waiter at once; when it was handed over a microtask later, a caller that
    // arrived in that gap took it too, and two ran under a limit of one. The gap sits a few microtasks after the
    // task settles, so every offset is tried.
    for (let offset = 0; offset < 8; offset++) {
      const limiter = createConcurrencyLimiter(1);
      let running = 0;
      let peak = 0;
      const order: string[] = [];
      const task = (name: string, hold?: Promise<void>) => async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(name);
        await hold;
        running--;
      };
      let release!: () => void;
      const first = limiter.run(task("first", new Promise<void>((resolve) => (release = resolve))));
      const waiter = limiter.run(task("waiter"));
      let late: Promise<void> | undefined;
      release();
      let chain = Promise.resolve();
      for (let step = 0; step < offset; step++) chain = chain.then(() => undefined);
      await chain.then(() => {
        late = limiter.run(task("late"));
      });
      await Promise.all([first, waiter, late]);
      expect({ offset, peak }).toEqual({ offset, peak: 1 });
      expect(order.indexOf("waiter")).toBeLessThan(order.indexOf("late"));
      expect(limiter.active).toBe(0);
    }
  });

  it("frees the slot of a task that throws", async () => {
    const limiter = createConcurrencyLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limiter.run(async () => "next")).resolves.toBe("next");
    expect(() => createConcurrencyLimiter(0)).toThrow(RangeError);
  });
});
