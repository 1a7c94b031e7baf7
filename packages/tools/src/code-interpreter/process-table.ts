import { readdir, readFile } from "node:fs/promises";

/** Pids of the live processes whose real uid is `uid`, read from /proc (the host's view, all namespaces). */
export function listProcessesOfUid(uid: number): Promise<number[]> {
  return listProcessesInUidRange(uid, 1);
}

/**
 * SIGKILL every process running as `uid`, repeating while new ones appear (a fork bomb keeps forking while we
 * kill). Only ever called for uids the interpreter allocated itself and saw unused.
 */
export async function killProcessesOfUid(uid: number, rounds = 50): Promise<number> {
  let remaining = 0;
  for (let round = 0; round < rounds; round++) {
    const pids = await listProcessesOfUid(uid);
    remaining = pids.length;
    if (pids.length === 0) return 0;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return remaining;
}

/** Pids whose real uid lies in [first, first + size): used to check that no sandboxed process outlived its session. */
export async function listProcessesInUidRange(first: number, size: number): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  await Promise.all(
    names.map(async (name) => {
      if (!/^\d+$/.test(name)) return;
      try {
        const status = await readFile(`/proc/${name}/status`, "utf8");
        const match = /^Uid:\s+(\d+)/m.exec(status);
        const uid = Number(match?.[1]);
        if (uid >= first && uid < first + size) found.push(Number(name));
      } catch {
        // The process ended while we looked.
      }
    }),
  );
  return found;
}
