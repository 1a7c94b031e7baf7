import { readProcessTable } from "./process-table.js";

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

/** Uids checked free in one read of the process table, for the acquisitions that follow. */
const checkedPerRead = 32;
/** A uid checked longer ago than this is checked again before it is given out. */
const checkedForMs = 5_000;

export function createUidPool({
  first = defaultSandboxUidRange.first,
  size = defaultSandboxUidRange.size,
  random = Math.random,
  now = () => performance.now(),
}: {
  first?: number;
  size?: number;
  random?: () => number;
  now?: () => number;
} = {}): UidPool {
  const inUse = new Set<number>();
  // Random uids no process ran as when the table was last read: another worker on this machine (or anything else)
  // using one is seen and skipped. Reading /proc once per uid cost more than the sandbox it was for.
  let checked: number[] = [];
  let checkedAt = 0;
  let reading: Promise<number> | undefined;

  /** Reads the process table once; how many free uids it found. */
  const refill = async (): Promise<number> => {
    const candidates = new Set<number>();
    for (let attempt = 0; candidates.size < checkedPerRead && attempt < checkedPerRead * 4; attempt++) {
      const uid = first + Math.floor(random() * size);
      if (!inUse.has(uid)) candidates.add(uid);
    }
    const table = await readProcessTable();
    checked = [...candidates].filter((uid) => !table.has(uid));
    checkedAt = now();
    return checked.length;
  };

  return {
    async acquire() {
      for (let emptyReads = 0; emptyReads < 3; ) {
        if (now() - checkedAt > checkedForMs) checked = [];
        for (let uid = checked.pop(); uid !== undefined; uid = checked.pop()) {
          if (inUse.has(uid)) continue;
          inUse.add(uid);
          return uid;
        }
        // Everyone waiting shares one read; a read that finds no free uid at all counts towards giving up.
        reading ??= refill().finally(() => {
          reading = undefined;
        });
        if ((await reading) === 0) emptyReads++;
      }
      throw new Error(`could not find a free sandbox uid in [${first}, ${first + size})`);
    },
    release(uid) {
      inUse.delete(uid);
    },
  };
}

/** One pool per process: sessions of different interpreters must not share uids either. */
export const sharedUidPool: UidPool = createUidPool();
