import { describe, expect, it } from "vitest";
import { createSandboxPool } from "./sandbox-pool.js";
import type { SandboxProcess } from "./sandbox-process.js";

// The pool's bookkeeping with stand-in processes (no sandbox): the real sandboxes are in sandbox-pool.int.test.ts.

interface FakeProcess {
  id: number;
  exitCode: number | null | undefined;
  onExit: SandboxProcess["onExit"];
}

/** Start-ups that finish when the test says; like real ones, they give up when the pool closes (unless told not to). */
function fakeStarts({ honourClose = true } = {}) {
  let next = 0;
  const pending: { resolve: (proc: SandboxProcess) => void; reject: (error: Error) => void }[] = [];
  const stopped: number[] = [];
  return {
    pending,
    stopped,
    start: (signal: AbortSignal) =>
      new Promise<SandboxProcess>((resolve, reject) => {
        const entry = { resolve, reject };
        pending.push(entry);
        if (honourClose) {
          signal.addEventListener("abort", () => {
            pending.splice(pending.indexOf(entry), 1);
            reject(new Error("cancelled"));
          });
        }
      }),
    /** Finishes the oldest start-up in flight with a fresh process. */
    finish(): FakeProcess {
      const proc: FakeProcess = { id: next++, exitCode: undefined, onExit: undefined };
      pending.shift()!.resolve(proc as unknown as SandboxProcess);
      return proc;
    },
    stop: async (proc: SandboxProcess) => {
      stopped.push((proc as unknown as FakeProcess).id);
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("sandbox pool", () => {
  it("fills to its size, at most maxStarting at a time, and hands each process out once", async () => {
    const starts = fakeStarts();
    const pool = createSandboxPool({ size: 3, maxStarting: 2, start: starts.start, stop: starts.stop });
    // Demand sets how many it keeps: one session coming, one sandbox; a burst of five, its size (3).
    pool.want();
    expect(starts.pending).toHaveLength(1);
    expect(pool.take()).toBeUndefined();
    pool.want(5);
    expect(starts.pending).toHaveLength(2);
    starts.finish();
    await settle();
    expect(starts.pending).toHaveLength(2);
    starts.finish();
    starts.finish();
    await settle();
    expect(pool.stats()).toMatchObject({ ready: 3, starting: 0, missed: 1, mostStartingAtOnce: 2 });

    const handed = new Set<unknown>();
    for (let i = 0; i < 3; i++) handed.add(pool.take());
    expect(handed.size).toBe(3);
    expect(handed.has(undefined)).toBe(false);
    expect(pool.take()).toBeUndefined();
    expect(pool.stats()).toMatchObject({ handedOut: 3, missed: 2, ready: 0, starting: 2 });
    // Handed-out processes belong to their sessions: the pool never stops them.
    expect(starts.stopped).toEqual([]);
    await pool.close();
  });

  it("drops a waiting process that died and never hands it out", async () => {
    const starts = fakeStarts();
    const pool = createSandboxPool({ size: 2, maxStarting: 2, start: starts.start, stop: starts.stop });
    pool.fill();
    const dead = starts.finish();
    const alive = starts.finish();
    await settle();
    dead.exitCode = 137;
    dead.onExit?.(137, null);
    await settle();
    expect(starts.stopped).toEqual([dead.id]);
    expect((pool.take() as unknown as FakeProcess).id).toBe(alive.id);
    await pool.close();
  });

  it("resolves whenReady once enough are ready, and rejects when a start-up fails", async () => {
    const starts = fakeStarts();
    let clock = 0;
    const pool = createSandboxPool({
      size: 2,
      maxStarting: 1,
      start: starts.start,
      stop: starts.stop,
      now: () => clock,
    });
    let ready = false;
    const waiting = pool.whenReady(2).then(() => {
      ready = true;
    });
    starts.finish();
    await settle();
    expect(ready).toBe(false);
    starts.finish();
    await waiting;
    expect(ready).toBe(true);

    pool.take();
    const failing = pool.whenReady(2);
    starts.pending.shift()!.reject(new Error("no sandbox"));
    await expect(failing).rejects.toThrow("no sandbox");
    // After a failure the pool waits before it tries again (no busy loop of failing start-ups).
    await settle();
    expect(starts.pending).toHaveLength(0);
    expect(pool.stats()).toMatchObject({ failed: 1, starting: 0 });
    clock += 60_000;
    pool.fill();
    expect(starts.pending).toHaveLength(1);
    await pool.close();
  });

  it("close() stops every waiting process and every start-up still in flight", async () => {
    const starts = fakeStarts({ honourClose: false });
    const pool = createSandboxPool({ size: 3, maxStarting: 3, start: starts.start, stop: starts.stop });
    pool.fill();
    const first = starts.finish();
    await settle();
    const closing = pool.close();
    // A start-up that completes after close() began is stopped too, and close() waits for it.
    const late = starts.finish();
    const later = starts.finish();
    await closing;
    expect(starts.stopped.sort()).toEqual([first.id, late.id, later.id].sort());
    expect(pool.take()).toBeUndefined();
    expect(starts.pending).toHaveLength(0);
  });
});
