import { listProcessesOfUid } from "./process-table.js";

/**
 * Unprivileged uids for sandboxed code when we run as root. RLIMIT_NPROC counts processes per uid system-wide, so
 * each live session gets its own uid: parallel rollouts then never share (or exhaust) one process budget.
 * The default range sits above systemd-nspawn's container range and below its reserved top range.
 */
export interface UidPool {
  acquire(): Promise<number>;
  release(uid: number): void;
}

export const defaultSandboxUidRange = { first: 1_900_000_000, size: 100_000_000 } as const;

export function createUidPool({
  first = defaultSandboxUidRange.first,
  size = defaultSandboxUidRange.size,
  random = Math.random,
}: {
  first?: number;
  size?: number;
  random?: () => number;
} = {}): UidPool {
  const inUse = new Set<number>();
  return {
    async acquire() {
      for (let attempt = 0; attempt < 32; attempt++) {
        const uid = first + Math.floor(random() * size);
        if (inUse.has(uid)) continue;
        inUse.add(uid);
        // Another process on this machine (another worker) may have picked it: then pick again.
        if ((await listProcessesOfUid(uid)).length === 0) return uid;
        inUse.delete(uid);
      }
      throw new Error("could not find a free sandbox uid after 32 attempts");
    },
    release(uid) {
      inUse.delete(uid);
    },
  };
}

/** One pool per process: sessions of different interpreters must not share uids either. */
export const sharedUidPool: UidPool = createUidPool();
