import { readFileSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Per-sandbox cgroups, where the machine lets us create them: a pids limit and a memory limit on the sandbox as a
 * whole (rlimits bind one process at a time), and exact counters of when either limit was hit. cgroup v1 (separate
 * pids and memory hierarchies) and v2 (one hierarchy, when our cgroup delegates the controllers) are supported;
 * anywhere else the sandbox runs without them and relies on its rlimits.
 */
export interface CgroupSupport {
  version: 1 | 2;
  /** Parent directory per controller, where sandbox cgroups are created. */
  pids: string | undefined;
  memory: string | undefined;
}

export interface LimitCounters {
  /** Times a fork was refused by the pids limit. */
  processLimitHits: number;
  /** Processes killed by the memory limit. */
  outOfMemoryKills: number;
}

export interface SandboxCgroup {
  /** cgroup.procs files the sandbox's first process must join before it starts anything. */
  readonly procsFiles: string[];
  counters(): Promise<LimitCounters>;
  /**
   * Kills what is left in the cgroups and removes them. True once they are gone, which proves no process of the
   * sandbox is left (all of them started inside, and code cannot move itself out); false if one would not go.
   */
  remove(): Promise<boolean>;
}

let detected: Promise<CgroupSupport | undefined> | undefined;

export function detectCgroupSupport(): Promise<CgroupSupport | undefined> {
  detected ??= detect().catch(() => undefined);
  return detected;
}

async function detect(): Promise<CgroupSupport | undefined> {
  const [mountinfo, ownCgroups] = await Promise.all([
    readFile("/proc/self/mountinfo", "utf8"),
    readFile("/proc/self/cgroup", "utf8"),
  ]);
  const mounts = mountinfo.split("\n").flatMap((line) => {
    const [left, right] = line.split(" - ");
    if (!left || !right) return [];
    const fields = left.split(" ");
    const [type, , superOptions] = right.split(" ");
    if (type !== "cgroup" && type !== "cgroup2") return [];
    return [{ type, root: fields[3]!, mountPoint: fields[4]!, options: (superOptions ?? "").split(",") }];
  });
  const own = ownCgroups.split("\n").flatMap((line) => {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    return match ? [{ controllers: match[2]!.split(","), path: match[3]! }] : [];
  });
  const directoryOf = (mount: { root: string; mountPoint: string }, ownPath: string) => {
    const relative = ownPath.startsWith(mount.root) ? ownPath.slice(mount.root.length) : ownPath;
    return path.join(mount.mountPoint, relative);
  };

  const v1: CgroupSupport = { version: 1, pids: undefined, memory: undefined };
  for (const controller of ["pids", "memory"] as const) {
    const mount = mounts.find((each) => each.type === "cgroup" && each.options.includes(controller));
    const ownPath = own.find((each) => each.controllers.includes(controller))?.path;
    if (!mount || ownPath === undefined) continue;
    const directory = directoryOf(mount, ownPath);
    if (await canCreateChild(directory)) v1[controller] = directory;
  }
  if (v1.pids || v1.memory) return v1;

  const unified = mounts.find((each) => each.type === "cgroup2");
  const ownPath = own.find((each) => each.controllers.length === 1 && each.controllers[0] === "")?.path;
  if (!unified || ownPath === undefined) return undefined;
  const directory = directoryOf(unified, ownPath);
  const delegated = (
    await readFile(path.join(directory, "cgroup.subtree_control"), "utf8").catch(() => "")
  ).split(/\s+/);
  const v2: CgroupSupport = {
    version: 2,
    pids: delegated.includes("pids") ? directory : undefined,
    memory: delegated.includes("memory") ? directory : undefined,
  };
  if (!(v2.pids || v2.memory) || !(await canCreateChild(directory))) return undefined;
  return v2;
}

async function canCreateChild(directory: string): Promise<boolean> {
  const probe = path.join(directory, `tfgrpo-probe-${process.pid}`);
  try {
    await mkdir(probe);
    await rmdir(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * A counter of a cgroup file, read synchronously: it is read before and after every cell, and a cgroup file is a few
 * bytes the kernel writes on the spot (an asynchronous read costs more in bookkeeping than the read itself).
 */
function readCounter(file: string, key: string): number {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return 0;
  }
  const match = new RegExp(`^${key}\\s+(\\d+)`, "m").exec(text);
  return match ? Number(match[1]) : 0;
}

export async function createSandboxCgroup(
  support: CgroupSupport,
  name: string,
  limits: { maxProcesses: number; memoryBytes: number },
): Promise<SandboxCgroup | undefined> {
  const created: string[] = [];
  try {
    const directories = new Map<"pids" | "memory", string>();
    for (const controller of ["pids", "memory"] as const) {
      const parent = support[controller];
      if (!parent) continue;
      const directory = path.join(parent, name);
      if (!created.includes(directory)) {
        await mkdir(directory);
        created.push(directory);
      }
      directories.set(controller, directory);
    }
    const pids = directories.get("pids");
    const memory = directories.get("memory");
    if (pids) await writeFile(path.join(pids, "pids.max"), String(limits.maxProcesses));
    if (memory) {
      if (support.version === 1) {
        await writeFile(path.join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
      } else {
        await writeFile(path.join(memory, "memory.max"), String(limits.memoryBytes));
        await writeFile(path.join(memory, "memory.swap.max"), "0").catch(() => undefined);
      }
    }
    return {
      procsFiles: created.map((directory) => path.join(directory, "cgroup.procs")),
      async counters() {
        const processLimitHits = pids ? readCounter(path.join(pids, "pids.events"), "max") : 0;
        const outOfMemoryKills = memory
          ? readCounter(
              path.join(memory, support.version === 1 ? "memory.oom_control" : "memory.events"),
              "oom_kill",
            )
          : 0;
        return { processLimitHits, outOfMemoryKills };
      },
      async remove() {
        let removed = true;
        for (const directory of created) removed = (await removeCgroup(directory)) && removed;
        return removed;
      },
    };
  } catch {
    for (const directory of created) await removeCgroup(directory);
    return undefined;
  }
}

async function removeCgroup(directory: string): Promise<boolean> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const procs = await readFile(path.join(directory, "cgroup.procs"), "utf8").catch(() => "");
    for (const pid of procs.split("\n").filter(Boolean)) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    try {
      await rmdir(directory);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return false;
}

/** argv that joins the cgroups, then execs `argv`: the sandbox and everything it starts is inside from the start. */
export function joinCgroupArgs(procsFiles: readonly string[], argv: readonly string[]): string[] {
  const script =
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n - 1)); done; exec "$@"';
  return ["/bin/sh", "-c", script, "sh", String(procsFiles.length), ...procsFiles, ...argv];
}
