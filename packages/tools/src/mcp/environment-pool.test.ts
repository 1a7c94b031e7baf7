import { describe, expect, it } from "vitest";
import { createEnvironmentPool } from "./environment-pool.js";
import type { McpConnection } from "./mcp-connection.js";

/** A connection that only knows whether it is closed (the pool needs no more). */
function fakeConnection(id: number): McpConnection & { id: number } {
  let closed = false;
  const listeners: Array<() => void> = [];
  return {
    id,
    server: "fake",
    tools: [],
    sessionId: undefined,
    pid: id,
    call: async () => ({ text: "", isError: false }),
    get closed() {
      return closed;
    },
    onClose(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      for (const listener of listeners.splice(0)) listener();
    },
  };
}

/** Start-ups that finish when the test says so; counts how many ran at once. */
function manualStarts() {
  const pending: Array<{ resolve: (c: McpConnection) => void; reject: (e: unknown) => void }> = [];
  let running = 0;
  let mostAtOnce = 0;
  let next = 0;
  return {
    connect: (signal: AbortSignal | undefined) =>
      new Promise<McpConnection>((resolve, reject) => {
        // As a real start-up does, it ends when the pool closes.
        signal?.addEventListener("abort", () => {
          const at = pending.findIndex((entry) => entry.resolve === settle.resolve);
          if (at >= 0) pending.splice(at, 1)[0]!.reject(new Error("aborted"));
        });
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        const settle = {
          resolve: (c: McpConnection) => {
            running--;
            resolve(c);
          },
          reject: (e: unknown) => {
            running--;
            reject(e);
          },
        };
        pending.push(settle);
      }),
    finishOne: () => {
      const connection = fakeConnection(next++);
      pending.shift()!.resolve(connection);
      return connection;
    },
    failOne: (error: Error) => pending.shift()!.reject(error),
    get waiting() {
      return pending.length;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("createEnvironmentPool", () => {
  it("serves a burst of attempts with at most maxStarting start-ups at once, in order", async () => {
    const starts = manualStarts();
    const pool = createEnvironmentPool({ size: 4, maxStarting: 2, connect: starts.connect });
    const handed = Array.from({ length: 10 }, () => pool.acquire());
    for (let finished = 0; finished < 14; finished++) {
      await tick();
      expect(starts.waiting).toBeLessThanOrEqual(2);
      starts.finishOne();
    }
    const connections = (await Promise.all(handed)) as (McpConnection & { id: number })[];
    expect(starts.mostAtOnce).toBe(2);
    // First come, first served; ten distinct environments; the pool then holds its size again.
    expect(connections.map((c) => c.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await tick();
    expect(pool.stats()).toMatchObject({ handedOut: 10, waited: 10, ready: 4, startedOwn: 0 });
    await pool.close();
  });

  it("lets the first attempt in line start its own when the start-up it waited for fails", async () => {
    const starts = manualStarts();
    const errors: unknown[] = [];
    const pool = createEnvironmentPool({
      size: 1,
      maxStarting: 1,
      connect: starts.connect,
      onError: (error) => errors.push(error),
    });
    const first = pool.acquire();
    const second = pool.acquire();
    await tick();
    starts.failOne(new Error("spawn failed"));
    await tick();
    // The first attempt's own start-up; the second still waits for the pool.
    expect(pool.stats()).toMatchObject({ failed: 1, startedOwn: 1 });
    starts.finishOne();
    expect(((await first) as McpConnection & { id: number }).id).toBe(0);
    await pool.close();
    await expect(second).rejects.toThrow(/pool is closed/);
    expect(errors).toHaveLength(1);
  });

  it("drops a ready environment that dies and starts another", async () => {
    const starts = manualStarts();
    const pool = createEnvironmentPool({ size: 1, maxStarting: 1, connect: starts.connect });
    await tick();
    const victim = starts.finishOne();
    await tick();
    expect(pool.stats().ready).toBe(1);
    await victim.close(); // as when its process exits
    expect(pool.stats()).toMatchObject({ ready: 0, died: 1 });
    expect(starts.waiting).toBe(1);
    const replacement = starts.finishOne();
    await tick();
    expect(((await pool.acquire()) as McpConnection & { id: number }).id).toBe(replacement.id);
    await pool.close();
  });

  it("gives each start-up a signal of its own (many at once on one signal: a listener-leak warning)", async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const starts = manualStarts();
    const pool = createEnvironmentPool({
      size: 12,
      maxStarting: 12,
      connect: (signal) => {
        signals.push(signal);
        return starts.connect(signal);
      },
    });
    await tick();
    expect(signals).toHaveLength(12);
    expect(new Set(signals).size).toBe(12);
    await pool.close();
    expect(signals.every((signal) => signal?.aborted)).toBe(true);
  });
});
