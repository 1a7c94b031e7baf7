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

  it("frees the slot of a task that throws", async () => {
    const limiter = createConcurrencyLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limiter.run(async () => "next")).resolves.toBe("next");
    expect(() => createConcurrencyLimiter(0)).toThrow(RangeError);
  });
});
