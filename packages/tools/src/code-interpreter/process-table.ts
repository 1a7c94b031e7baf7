import { closeSync, openSync, readdirSync, readSync } from "node:fs";

/** Live (not zombie) processes by real uid, as /proc showed them at one moment. */
export type ProcessTable = ReadonlyMap<number, readonly number[]>;

/**
 * The host's process table (all namespaces), read once for everyone who asks before the read starts.
 *
 * Each sandbox start and stop looks at it (is this uid free? did anything of it survive?), so with many rollouts at
 * once the reads used to cost more than the sandboxes: one asynchronous read of /proc/<pid>/status per process per
 * caller. Now callers in the same turn of the event loop share one synchronous read (about 1-5 ms for a few hundred
 * processes), and a caller never gets a read that began before its call, so a process it started is always in it.
 */
export function readProcessTable(): Promise<ProcessTable> {
  if (pending) return pending;
  const scan = new Promise<ProcessTable>((resolve) => {
    setImmediate(() => {
      // From here on, a new caller may have started a process this read misses: it gets the next read.
      pending = undefined;
      resolve(scanProc());
    });
  });
  pending = scan;
  return scan;
}

let pending: Promise<ProcessTable> | undefined;

const statusBuffer = Buffer.alloc(8192);

function scanProc(): ProcessTable {
  const table = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return table;
  }
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const status = readStatus(`/proc/${name}/status`);
    // Gone while we looked, or a zombie: already dead, it only waits for its new parent to reap it.
    if (status === undefined || /^State:\s+[ZX]/m.test(status)) continue;
    const match = /^Uid:\s+(\d+)/m.exec(status);
    if (!match) continue;
    const uid = Number(match[1]);
    const pids = table.get(uid);
    if (pids) pids.push(Number(name));
    else table.set(uid, [Number(name)]);
  }
  return table;
}

function readStatus(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const length = readSync(fd, statusBuffer, 0, statusBuffer.length, 0);
    return statusBuffer.toString("latin1", 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Pids of the live processes whose real uid is `uid`, read from /proc (the host's view, all namespaces). */
export async function listProcessesOfUid(uid: number): Promise<number[]> {
  return [...((await readProcessTable()).get(uid) ?? [])];
}

/**
 * SIGKILL every process running as `uid`, repeating while new ones appear (a fork bomb keeps forking while we
 * kill) or old ones are still on their way out (slow on a loaded machine), for up to `budgetMs`. Only ever called
 * for uids the interpreter allocated itself and saw unused. Returns how many were still there at the end.
 */
export async function killProcessesOfUid(uid: number, budgetMs = 10_000): Promise<number> {
  const deadline = Date.now() + budgetMs;
  let pause = 5;
  for (;;) {
    const pids = await listProcessesOfUid(uid);
    if (pids.length === 0 || Date.now() > deadline) return pids.length;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(100, pause * 2);
  }
}

/**
 * Live (not zombie) pids whose real uid lies in [first, first + size): used to check that no sandboxed process
 * outlived its session.
 */
export async function listProcessesInUidRange(first: number, size: number): Promise<number[]> {
  const found: number[] = [];
  for (const [uid, pids] of await readProcessTable()) {
    if (uid >= first && uid < first + size) found.push(...pids);
  }
  return found;
}
