import { TfgrpoError } from "@tfgrpo/protocol";
import type { McpConnection } from "./mcp-connection.js";

/** What a warm environment pool has done so far (for benchmarks, tests and logs). */
export interface EnvironmentPoolStats {
  /** Started environments waiting for an attempt. */
  ready: number;
  /** Background start-ups in progress. */
  starting: number;
  /** Environments handed to an attempt (each to exactly one). */
  handedOut: number;
  /** Attempts that found nothing ready and waited for a start-up. */
  waited: number;
  /** Attempts that started an environment of their own after the start-up they waited for failed. */
  startedOwn: number;
  /** Background start-ups that failed (the pool waits longer after each one in a row). */
  failed: number;
  /** Ready environments that died while they waited (dropped and replaced). */
  died: number;
  /** Environments taken back after an attempt, for another (`reuse: true` servers only). */
  reused: number;
}

export interface EnvironmentPoolOptions {
  /** Environments kept ready or starting. */
  size: number;
  /** Background start-ups at once (each a process start or an MCP initialize: CPU taken from running attempts). */
  maxStarting: number;
  /** Starts one environment (spawn + initialize + tools/list, or a new MCP session); `signal` aborts on close. */
  connect: (signal: AbortSignal | undefined) => Promise<McpConnection>;
  /** A background start-up failed (an attempt that then starts its own reports its error). */
  onError?: (error: unknown) => void;
  now?: () => number;
}

export interface EnvironmentPool {
  /**
   * An environment that no attempt has used, removed from the pool for good: the caller closes it when its attempt
   * ends (it never comes back, so no state passes from one attempt to another). A ready one if there is one; else
   * the next one the pool starts (attempts wait in line). When that start-up fails, one started for this attempt;
   * rejects only when that fails too, or when `signal` aborts.
   */
  acquire(signal?: AbortSignal): Promise<McpConnection>;
  /**
   * Takes back an environment whose attempt ended cleanly, for another attempt (which resets it first). Only for
   * servers whose reset restores everything (`reuse: true`); a closed one is dropped.
   */
  release(connection: McpConnection): void;
  stats(): EnvironmentPoolStats;
  /** Stops refilling and closes every environment the pool holds or is starting; resolves when all are gone. */
  close(): Promise<void>;
}

const closedError = () =>
  new TfgrpoError("environment_unavailable", "the environment pool is closed", {
    details: { reason: "closed" },
  });

interface Waiter {
  /** Handed a started environment, or `undefined`: start your own (a background start-up failed). */
  settle: (connection: McpConnection | undefined) => void;
}

/**
 * Environments started ahead of need, like the code interpreter's sandbox pool (code-interpreter/sandbox-pool.ts),
 * but an attempt that finds none ready waits in line for the pool's next start-up instead of starting one itself
 * (start-ups are CPU-bound: a burst of C attempts on a small machine would otherwise run C Node start-ups at once).
 * Each environment serves one attempt and is closed after it, never recycled.
 */
export function createEnvironmentPool(options: EnvironmentPoolOptions): EnvironmentPool {
  const now = options.now ?? (() => performance.now());
  const ready: McpConnection[] = [];
  const watched = new WeakSet<McpConnection>();
  const waiters: Waiter[] = [];
  const starting = new Set<Promise<void>>();
  const closing = new Set<Promise<void>>();
  // One controller per start-up (close() aborts them all): many start-ups at once on one shared signal would each add
  // a listener to it, past Node's warning threshold.
  const startups = new Set<AbortController>();
  const stats = { handedOut: 0, waited: 0, startedOwn: 0, failed: 0, died: 0, reused: 0 };
  let inFlight = 0;
  let closed = false;
  let failuresInARow = 0;
  let retryAt = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  const discard = (connection: McpConnection) => {
    const done = connection
      .close()
      .catch(() => {})
      .finally(() => closing.delete(done));
    closing.add(done);
  };

  const hand = (connection: McpConnection) => {
    stats.handedOut++;
    return connection;
  };

  /** To the first waiter, else among the ready ones: a fresh start-up last in line, an environment taken back first. */
  const offer = (connection: McpConnection, takenBack = false) => {
    const waiter = waiters.shift();
    if (waiter) {
      waiter.settle(hand(connection));
      return;
    }
    if (takenBack) ready.unshift(connection);
    else ready.push(connection);
    // Watched once: a reused environment comes back here after every attempt.
    if (watched.has(connection)) return;
    watched.add(connection);
    connection.onClose(() => {
      const at = ready.indexOf(connection);
      if (at < 0) return;
      // Died while it waited (killed from outside, crashed): dropped and replaced.
      ready.splice(at, 1);
      stats.died++;
      refill();
    });
  };

  const startOne = () => {
    inFlight++;
    const controller = new AbortController();
    startups.add(controller);
    const started = options
      .connect(controller.signal)
      .then((connection) => {
        inFlight--;
        failuresInARow = 0;
        if (closed || connection.closed) discard(connection);
        else offer(connection);
      })
      .catch((error: unknown) => {
        inFlight--;
        if (closed) return;
        stats.failed++;
        failuresInARow++;
        retryAt = now() + Math.min(30_000, 250 * 2 ** failuresInARow);
        options.onError?.(error);
        // The first in line starts its own (and fails with the reason, if it persists); the others wait for the
        // pool's next try, so a failing server does not turn into a burst of start-ups.
        waiters.shift()?.settle(undefined);
      })
      .finally(() => {
        startups.delete(controller);
        starting.delete(started);
        refill();
      });
    starting.add(started);
  };

  function refill(): void {
    if (closed) return;
    const wait = retryAt - now();
    if (wait > 0) {
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        refill();
      }, wait);
      retryTimer.unref();
      return;
    }
    // Waiters count as demand beyond the ready ones: the pool keeps `size` spare once they are served.
    while (ready.length + inFlight - waiters.length < options.size && inFlight < options.maxStarting)
      startOne();
  }

  const startOwn = async (signal: AbortSignal | undefined) => {
    stats.startedOwn++;
    return hand(await options.connect(signal));
  };

  refill();

  return {
    async acquire(signal) {
      if (closed) throw closedError();
      let connection = ready.shift();
      while (connection?.closed) connection = ready.shift();
      if (connection) {
        refill();
        return hand(connection);
      }
      // None ready: wait in line for the next start-up (the pool starts one more for each waiter, at most
      // `maxStarting` at once). Starting one here instead would run a burst of C attempts' start-ups at once: on a
      // loaded 2-CPU machine each then took longer than `startTimeoutMs` and every attempt failed.
      stats.waited++;
      const handed = await new Promise<McpConnection | undefined>((resolve, reject) => {
        const waiter: Waiter = {
          settle: (value) => {
            signal?.removeEventListener("abort", abort);
            resolve(value);
          },
        };
        const abort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          refill();
          reject(signal?.reason);
        };
        if (signal?.aborted) return abort();
        signal?.addEventListener("abort", abort, { once: true });
        waiters.push(waiter);
        refill();
      });
      if (handed) return handed;
      if (closed) throw closedError();
      // The start-up it waited for failed: one start of its own, whose error (if it persists) the attempt reports.
      return startOwn(signal);
    },
    release(connection) {
      // Kept even past `size`: it is started already, and the pool starts none while `size` are ready, so the
      // processes alive stay within `size` plus the attempts running at once, as without reuse.
      if (closed || connection.closed) {
        discard(connection);
        return;
      }
      stats.reused++;
      // First in line: the next attempt gets a process that has run already, and the pool's spares stay spare
      // (and which process an attempt gets does not depend on whether a spare's start-up finished just before).
      offer(connection, true);
    },
    stats: () => ({ ready: ready.length, starting: inFlight, ...stats }),
    async close() {
      closed = true;
      for (const controller of startups) controller.abort();
      if (retryTimer) clearTimeout(retryTimer);
      for (const waiter of waiters.splice(0)) waiter.settle(undefined);
      for (const connection of ready.splice(0)) discard(connection);
      // A start-up in flight ends in discard() (closed is set): wait for it, then for every close, so that no server
      // the pool started outlives close().
      await Promise.all([...starting]);
      await Promise.all([...closing]);
    },
  };
}
