import type { SandboxProcess } from "./sandbox-process.js";

/** What a warm pool has done so far (for benchmarks, tests and logs). */
export interface SandboxPoolStats {
  /** Started sandboxes waiting for a session. */
  ready: number;
  /** Background start-ups in progress. */
  starting: number;
  /** Sandboxes handed to a session (each to exactly one). */
  handedOut: number;
  /** Sessions that found the pool empty and started a sandbox of their own. */
  missed: number;
  /** Background start-ups that failed (the pool waits longer after each one in a row). */
  failed: number;
  /** The most background start-ups the pool ran at once. */
  mostStartingAtOnce: number;
}

export interface SandboxPoolOptions {
  /** Sandboxes kept ready. */
  size: number;
  /** Background start-ups at once (the CPUs they may take from running cells). */
  maxStarting: number;
  /** Starts one sandbox, ready for cells; `signal` is aborted when the pool closes. */
  start: (signal: AbortSignal) => Promise<SandboxProcess>;
  /** Kills one sandbox and releases its uid, cgroups and files. */
  stop: (process: SandboxProcess) => Promise<void>;
  /** A background start-up failed (the session that needs a sandbox then starts its own and reports the error). */
  onError?: (error: unknown) => void;
  now?: () => number;
}

export interface SandboxPool {
  /**
   * A ready sandbox, removed from the pool for good: it belongs to the caller, who destroys it when done (it never
   * comes back). Undefined when none is ready. Either way the pool refills in the background.
   */
  take(): SandboxProcess | undefined;
  /**
   * Says that `sessions` more sessions are coming: the pool grows towards its size with the demand it has seen, so a
   * run with a few rollouts starts a few spare sandboxes, not a full pool.
   */
  want(sessions?: number): void;
  /** Fills the pool to its full size. */
  fill(): void;
  /**
   * Resolves once `count` sandboxes (at most the pool's size) are ready, or the pool is closed; rejects with the error
   * of a background start-up that fails meanwhile.
   */
  whenReady(count?: number): Promise<void>;
  stats(): SandboxPoolStats;
  /** Stops refilling and kills every sandbox the pool holds or is starting; resolves when all are gone. */
  close(): Promise<void>;
}

/**
 * Sandboxes started ahead of need. Each is used by one session only; a used sandbox is destroyed, never recycled, so
 * no variable, file or process passes from one rollout to another. At most `maxStarting` start-ups run at once.
 */
export function createSandboxPool(options: SandboxPoolOptions): SandboxPool {
  const now = options.now ?? (() => performance.now());
  const ready: SandboxProcess[] = [];
  const starting = new Set<Promise<void>>();
  const stopping = new Set<Promise<void>>();
  const stats = { handedOut: 0, missed: 0, failed: 0, mostStartingAtOnce: 0 };
  let closed = false;
  const closing = new AbortController();
  let failuresInARow = 0;
  let retryAt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  const waiters = new Set<{ count: number; resolve: () => void; reject: (error: unknown) => void }>();
  const settleWaiters = (error?: unknown) => {
    for (const waiter of waiters) {
      if (error !== undefined) waiter.reject(error);
      else if (closed || ready.length >= waiter.count) waiter.resolve();
      else continue;
      waiters.delete(waiter);
    }
  };

  const discard = (proc: SandboxProcess): Promise<void> => {
    const stopped = options
      .stop(proc)
      .catch(() => {
        // Already gone.
      })
      .finally(() => stopping.delete(stopped));
    stopping.add(stopped);
    return stopped;
  };

  // Start-ups not finished yet (`starting` also holds the finished ones until their bookkeeping is done).
  let inFlight = 0;
  const startOne = () => {
    inFlight++;
    let counted = true;
    const finished = () => {
      if (counted) inFlight--;
      counted = false;
    };
    const started = options
      .start(closing.signal)
      .then((proc) => {
        finished();
        failuresInARow = 0;
        if (closed || proc.exitCode !== undefined) return discard(proc);
        // A sandbox that dies while it waits (killed from outside) leaves the pool at once.
        proc.onExit = () => {
          const at = ready.indexOf(proc);
          if (at >= 0) ready.splice(at, 1);
          void discard(proc);
          fill();
        };
        ready.push(proc);
        settleWaiters();
      })
      .catch((error: unknown) => {
        finished();
        // A start-up cancelled by close() is no failure.
        if (closed) return;
        stats.failed++;
        failuresInARow++;
        retryAt = now() + Math.min(30_000, 250 * 2 ** failuresInARow);
        options.onError?.(error);
        settleWaiters(error);
      })
      .finally(() => {
        starting.delete(started);
        fill();
      });
    starting.add(started);
    stats.mostStartingAtOnce = Math.max(stats.mostStartingAtOnce, inFlight);
  };

  /** How many sandboxes the pool keeps: its size once demand (or warm-up) has asked for that many. */
  let target = 0;

  function fill(): void {
    if (closed) return;
    const wait = retryAt - now();
    if (wait > 0) {
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        fill();
      }, wait);
      retryTimer.unref();
      return;
    }
    while (ready.length + inFlight < target && inFlight < options.maxStarting) startOne();
  }

  return {
    take() {
      let proc = ready.shift();
      while (proc && proc.exitCode !== undefined) {
        void discard(proc);
        proc = ready.shift();
      }
      if (proc) {
        proc.onExit = undefined;
        stats.handedOut++;
      } else stats.missed++;
      fill();
      return proc;
    },
    want(sessions = 1) {
      target = Math.min(options.size, target + sessions);
      fill();
    },
    fill() {
      target = options.size;
      fill();
    },
    whenReady(count = options.size) {
      return new Promise<void>((resolve, reject) => {
        waiters.add({ count: Math.min(count, options.size), resolve, reject });
        target = Math.max(target, Math.min(count, options.size));
        fill();
        settleWaiters();
      });
    },
    stats: () => ({ ready: ready.length, starting: inFlight, ...stats }),
    async close() {
      closed = true;
      closing.abort();
      if (retryTimer) clearTimeout(retryTimer);
      settleWaiters();
      const held = ready.splice(0);
      for (const proc of held) {
        proc.onExit = undefined;
        void discard(proc);
      }
      // A start-up in flight ends in discard() (closed is set): wait for it, then for every stop, so that nothing the
      // pool started outlives close().
      await Promise.all([...starting]);
      await Promise.all([...stopping]);
    },
  };
}
