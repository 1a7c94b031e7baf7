import { readdir, readFile } from "node:fs/promises";

/** Pids of the live processes whose real uid is `uid`, read from /proc (the host's view, all namespaces). */
export function listProcessesOfUid(uid: number): Promise<number[]> {
  return listProcessesInUidRange(uid, 1);
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
        // A zombie is already dead: it only waits for its new parent (pid 1 of the host) to reap it.
        if (uid >= first && uid < first + size && !/^State:\s+[ZX]/m.test(status)) found.push(Number(name));
      } catch {
        // The process ended while we looked.
      }
    }),
  );
  return found;
}
