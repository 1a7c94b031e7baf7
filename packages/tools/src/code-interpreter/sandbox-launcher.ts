import { randomBytes } from "node:crypto";
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SandboxKind } from "./code-result.js";
import { killProcessesOfUid, listProcessesOfUid } from "./process-table.js";
import { pythonDriverSource } from "./python-driver.js";
import {
  createSandboxCgroup,
  detectCgroupSupport,
  joinCgroupArgs,
  type SandboxCgroup,
} from "./sandbox-cgroup.js";
import type { UidPool } from "./uid-pool.js";

export interface SandboxLimits {
  memoryMb: number;
  cpuSeconds: number;
  maxProcesses: number;
  fileSizeMb: number;
  openFiles: number;
  scratchMb: number;
  /** Memory of the whole sandbox (all its processes and its tmpfs), enforced where cgroups are available. */
  totalMemoryMb: number;
}

/** How to start one sandboxed Python driver, and how to clean up after it. */
export interface LaunchSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  sandbox: SandboxKind;
  /** The unprivileged uid the code runs as, when the launcher switched to one (we are root). */
  uid: number | undefined;
  /** The sandbox's own cgroups, when the machine allows them. */
  cgroup: SandboxCgroup | undefined;
  /** After the process is gone: kill anything left under its uid, free the uid, remove temp files. */
  release(): Promise<void>;
}

export interface LaunchOptions {
  /** Modules the driver imports (into `sys.modules` only, not the cell namespace) before it reports ready. */
  preImport?: readonly string[];
}

export interface SandboxLauncher {
  readonly kind: SandboxKind;
  launch(limits: SandboxLimits, options?: LaunchOptions): Promise<LaunchSpec>;
}

export interface LauncherOptions {
  pythonPath: string;
  setprivPath: string;
  /** True when this process runs as root: code is then switched to an unprivileged uid from `uidPool`. */
  asRoot: boolean;
  uidPool: UidPool;
  /** Put each sandbox in its own pids and memory cgroups when the machine lets us (default true). */
  cgroups?: boolean;
}

const megabyte = 1024 * 1024;

/** The child's whole environment: nothing of ours (keys, home, project paths) is passed on. */
function cleanEnvironment(home: string, tmp: string): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    // One thread per math library: threads count against the process limit and the address-space limit.
    OPENBLAS_NUM_THREADS: "1",
    OMP_NUM_THREADS: "1",
    MKL_NUM_THREADS: "1",
    MPLBACKEND: "Agg",
    MPLCONFIGDIR: tmp,
  };
}

async function driverConfig(
  limits: SandboxLimits,
  options: {
    reap: boolean;
    uid: number | undefined;
    cgroup: SandboxCgroup | undefined;
    preImport: readonly string[] | undefined;
  },
) {
  // With a pids cgroup (same capacity, exact counter) the cgroup should refuse a fork before RLIMIT_NPROC does.
  let processes = limits.maxProcesses + (options.cgroup ? 1 : 0);
  if (options.uid === undefined && typeof process.getuid === "function") {
    // Without a uid of our own, RLIMIT_NPROC counts every process of the user, so allow for those running now.
    processes += (await listProcessesOfUid(process.getuid())).length;
  }
  return JSON.stringify({
    reap: options.reap,
    preImport: options.preImport ?? [],
    limits: {
      addressSpaceBytes: limits.memoryMb * megabyte,
      processes,
      fileSizeBytes: limits.fileSizeMb * megabyte,
      openFiles: limits.openFiles,
      cpuSecondsPerCell: limits.cpuSeconds,
      // A session may run many cells; the per-cell budget is the soft limit, this bounds the whole session.
      cpuSecondsHard: Math.max(600, limits.cpuSeconds * 20),
    },
  });
}

async function sandboxCgroup(
  options: LauncherOptions,
  limits: SandboxLimits,
): Promise<SandboxCgroup | undefined> {
  if (options.cgroups === false) return undefined;
  const support = await detectCgroupSupport();
  if (!support) return undefined;
  return createSandboxCgroup(support, `tfgrpo-${process.pid}-${randomBytes(6).toString("hex")}`, {
    // bubblewrap's two processes (outside and pid 1 inside) count here but not under the sandbox uid.
    maxProcesses: limits.maxProcesses + 2,
    memoryBytes: limits.totalMemoryMb * megabyte,
  });
}

/**
 * After a sandbox's process is gone: nothing of it may be left running before its uid is given out again. The cgroup
 * first: removing it kills what is left in it and succeeds only once it is empty, which proves the sandbox gone
 * (every process of it started inside). Without one, or if it would not empty, every process of the uid is looked for
 * in /proc and killed (a read of the whole process table each time).
 */
async function releaseProcesses(
  uidPool: UidPool,
  uid: number | undefined,
  cgroup: SandboxCgroup | undefined,
): Promise<void> {
  const emptied = (await cgroup?.remove()) ?? false;
  if (uid === undefined) return;
  if (!emptied) await killProcessesOfUid(uid);
  uidPool.release(uid);
}

/** The spawn command, joining the sandbox's cgroups first when it has them. */
function withCgroup(cgroup: SandboxCgroup | undefined, argv: string[]): { command: string; args: string[] } {
  const full = cgroup ? joinCgroupArgs(cgroup.procsFiles, argv) : argv;
  return { command: full[0]!, args: full.slice(1) };
}

function pythonArgs(pythonPath: string, config: string): string[] {
  // -I: ignore PYTHON* variables and the user site; -u: unbuffered, so output before a kill is not lost.
  return [pythonPath, "-I", "-u", "-c", pythonDriverSource, config];
}

function dropPrivileges(setprivPath: string, uid: number): string[] {
  return [
    setprivPath,
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--",
  ];
}

/** Top-level system directories as bwrap arguments: symlinks stay symlinks (merged /usr), directories are bound. */
function systemDirectoryArgs(): string[] {
  const args: string[] = [];
  for (const dir of ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]) {
    try {
      const stat = lstatSync(dir);
      if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
      else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
    } catch {
      // Not on this system.
    }
  }
  return args;
}

/** A python outside /usr (e.g. /opt/python3.12/bin/python3) needs its install prefix visible, read-only. */
function pythonPrefixArgs(pythonPath: string): string[] {
  let real: string;
  try {
    real = realpathSync(pythonPath);
  } catch {
    return [];
  }
  if (real.startsWith("/usr/")) return [];
  const prefix = path.dirname(path.dirname(real));
  if (prefix === "/") return [];
  const args = ["--ro-bind", prefix, prefix];
  if (real !== pythonPath && !pythonPath.startsWith("/usr/")) args.push("--ro-bind", pythonPath, pythonPath);
  return args;
}

export function createBubblewrapLauncher(options: LauncherOptions & { bwrapPath: string }): SandboxLauncher {
  return {
    kind: "bubblewrap",
    async launch(limits, launchOptions = {}) {
      const uid = options.asRoot ? await options.uidPool.acquire() : undefined;
      const cgroup = await sandboxCgroup(options, limits);
      const config = await driverConfig(limits, {
        reap: true,
        uid,
        cgroup,
        preImport: launchOptions.preImport,
      });
      const namespaces = [
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
      ];
      // As root we keep the real uid mapping so that setpriv can switch to a real unprivileged uid (RLIMIT_NPROC is
      // not enforced for root, even inside a user namespace). Otherwise bubblewrap needs a user namespace.
      if (!options.asRoot) namespaces.unshift("--unshare-user");
      const env = cleanEnvironment("/scratch", "/tmp");
      const envArgs = Object.entries(env).flatMap(([name, value]) => ["--setenv", name, value]);
      const args = [
        ...namespaces,
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        ...envArgs,
        "--ro-bind",
        "/usr",
        "/usr",
        ...systemDirectoryArgs(),
        ...pythonPrefixArgs(options.pythonPath),
        // Made by bubblewrap as root it would be 0700, and the unprivileged uid could not follow the library links
        // through /etc/alternatives (numpy's libblas.so.3): a traversable /etc holding only the binds below.
        "--perms",
        "0755",
        "--dir",
        "/etc",
        "--ro-bind-try",
        "/etc/alternatives",
        "/etc/alternatives",
        "--ro-bind-try",
        "/etc/ld.so.cache",
        "/etc/ld.so.cache",
        "--ro-bind-try",
        "/etc/localtime",
        "/etc/localtime",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        String(limits.scratchMb * megabyte),
        "--tmpfs",
        "/scratch",
        "--perms",
        "1777",
        "--size",
        String(limits.scratchMb * megabyte),
        "--tmpfs",
        "/tmp",
        "--chdir",
        "/scratch",
        "--remount-ro",
        "/",
        ...(uid === undefined ? [] : dropPrivileges(options.setprivPath, uid)),
        ...pythonArgs(options.pythonPath, config),
      ];
      return {
        ...withCgroup(cgroup, [options.bwrapPath, ...args]),
        // bubblewrap's own process (pid 1 of the sandbox) keeps the environment it was started with.
        env: { PATH: "/usr/bin:/bin" },
        cwd: "/",
        sandbox: "bubblewrap",
        uid,
        cgroup,
        release: () => releaseProcesses(options.uidPool, uid, cgroup),
      };
    },
  };
}

/**
 * The weaker mode a user must opt into (`allowUnsandboxed: true`): no namespaces and the real filesystem, but still
 * a clean environment, a private temp working directory, rlimits, an unprivileged uid when we are root, the
 * wall-clock timeout and the output cap.
 */
export function createUnsandboxedLauncher(options: LauncherOptions): SandboxLauncher {
  return {
    kind: "none",
    async launch(limits, launchOptions = {}) {
      const uid = options.asRoot ? await options.uidPool.acquire() : undefined;
      const directory = await mkdtemp(path.join(tmpdir(), "tfgrpo-code-"));
      if (uid !== undefined) {
        await chown(directory, uid, uid);
        await chmod(directory, 0o700);
      }
      const cgroup = await sandboxCgroup(options, limits);
      const config = await driverConfig(limits, {
        reap: false,
        uid,
        cgroup,
        preImport: launchOptions.preImport,
      });
      const argv = [
        ...(uid === undefined ? [] : dropPrivileges(options.setprivPath, uid)),
        ...pythonArgs(options.pythonPath, config),
      ];
      return {
        ...withCgroup(cgroup, argv),
        env: cleanEnvironment(directory, directory),
        cwd: directory,
        sandbox: "none",
        uid,
        cgroup,
        async release() {
          await releaseProcesses(options.uidPool, uid, cgroup);
          await rm(directory, { recursive: true, force: true });
        },
      };
    },
  };
}
