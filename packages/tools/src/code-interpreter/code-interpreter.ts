import { availableParallelism } from "node:os";
import { formatZodIssues, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import type { CodeResult, SandboxKind } from "./code-result.js";
import { createImportTracker, type ImportTracker, importedModules } from "./import-tracker.js";
import { type CodeSession, createPythonSession } from "./python-session.js";
import {
  createBubblewrapLauncher,
  createUnsandboxedLauncher,
  type SandboxLauncher,
  type SandboxLimits,
} from "./sandbox-launcher.js";
import { createSandboxPool, type SandboxPool, type SandboxPoolStats } from "./sandbox-pool.js";
import { findExecutable, isExecutable, probeSandbox } from "./sandbox-probe.js";
import { startSandboxProcess, stopSandboxProcess } from "./sandbox-process.js";
import { sharedUidPool, type UidPool } from "./uid-pool.js";

/** Python module names, e.g. `sympy` or `numpy.linalg`. */
const moduleNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/,
    "a Python module name such as sympy or numpy.linalg",
  );

/** Pre-imports an explicit list would most often name for math code; the default is "auto" (learned from use). */
export const defaultPreImports = ["sympy", "numpy", "math", "fractions"] as const;

export const sandboxPoolOptionsSchema = z.object({
  size: z
    .number()
    .int()
    .min(0)
    .max(256)
    .default(8)
    .describe("Sandboxes kept started and ready (0: no pool); each serves one session and is then destroyed"),
  preImport: z
    .union([z.literal("auto"), z.array(moduleNameSchema)])
    .default("auto")
    .describe(
      'Modules a pooled sandbox imports before it is handed out (a missing one is skipped); "auto": those a quarter ' +
        "or more of the last 32 sessions imported, from a list of common libraries (autoPreImportCandidates)",
    ),
  startShare: z
    .number()
    .gt(0)
    .max(1)
    .default(0.5)
    .describe("Share of the CPUs background start-ups may use at once (at least one start-up)"),
});
export type SandboxPoolOptions = z.input<typeof sandboxPoolOptionsSchema>;

export const codeInterpreterOptionsSchema = z.object({
  timeoutMs: z.number().int().positive().default(20_000).describe("Wall-clock limit per cell"),
  memoryMb: z
    .number()
    .int()
    .min(128)
    .default(1024)
    .describe("Address-space limit per process (sympy and numpy need a few hundred MB)"),
  maxOutputBytes: z
    .number()
    .int()
    .positive()
    .default(20_000)
    .describe("Bytes kept per stream (head and tail)"),
  killOutputBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Output beyond this kills the cell; default max(1 MiB, 50 x maxOutputBytes)"),
  cpuSeconds: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("CPU seconds per cell; default the timeout, rounded up"),
  maxProcesses: z
    .number()
    .int()
    .min(2)
    .default(32)
    .describe("Processes and threads the code may run at once"),
  fileSizeMb: z.number().int().positive().default(64).describe("Largest file the code may write"),
  scratchMb: z.number().int().positive().default(128).describe("Size of the private /scratch and /tmp"),
  totalMemoryMb: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Memory of the whole sandbox where cgroups allow; default memoryMb + 2 x scratchMb + 256"),
  cgroups: z
    .boolean()
    .default(true)
    .describe("Give each sandbox its own pids and memory cgroups when possible"),
  openFiles: z.number().int().positive().default(256),
  allowUnsandboxed: z
    .boolean()
    .default(false)
    .describe(
      "Run code without bubblewrap when it is unavailable (weaker isolation; results say sandbox: none)",
    ),
  pythonPath: z.string().min(1).default("/usr/bin/python3"),
  bwrapPath: z.string().min(1).optional().describe("bubblewrap binary; default `bwrap` from PATH"),
  setprivPath: z.string().min(1).default("/usr/bin/setpriv"),
  startTimeoutMs: z.number().int().positive().default(15_000),
  pool: sandboxPoolOptionsSchema
    .optional()
    .describe("Warm sandboxes started ahead of need; without it every session starts its own"),
});

export type CodeInterpreterOptions = z.input<typeof codeInterpreterOptionsSchema> & {
  now?: () => number;
  uidPool?: UidPool;
  /** Whether this process runs as root (then code runs under a fresh unprivileged uid). Default: getuid() === 0. */
  asRoot?: boolean;
};

export interface CodeInterpreter {
  /** Runs code in a fresh sandbox that is discarded afterwards. */
  run(code: string, options?: { signal?: AbortSignal }): Promise<CodeResult>;
  /** A notebook-like session (one per rollout): variables persist between its cells until it is closed. */
  session(): CodeSession;
  /** Which isolation runs the code; throws `sandbox_unavailable` when none is allowed. */
  sandbox(): Promise<SandboxKind>;
  /**
   * Starts filling the warm pool (sessions do it too) and resolves when `ready` sandboxes (default: the pool's size)
   * are waiting; resolves at once without a pool, rejects when a start-up fails.
   */
  warm(ready?: number): Promise<void>;
  /** What the warm pool has done and what a sandbox it starts now imports; undefined without a pool. */
  poolStats(): (SandboxPoolStats & { preImport: string[] }) | undefined;
  /** Closes every session opened from this interpreter and kills every pooled sandbox. */
  close(): Promise<void>;
}

export function createCodeInterpreter(options: CodeInterpreterOptions = {}): CodeInterpreter {
  const parsed = codeInterpreterOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TfgrpoError(
      "invalid_config",
      `code interpreter options: ${formatZodIssues(parsed.error.issues)}`,
    );
  }
  const config = parsed.data;
  const now = options.now ?? (() => performance.now());
  const asRoot = options.asRoot ?? process.getuid?.() === 0;
  const uidPool = options.uidPool ?? sharedUidPool;
  const limits: SandboxLimits = {
    memoryMb: config.memoryMb,
    cpuSeconds: config.cpuSeconds ?? Math.ceil(config.timeoutMs / 1000),
    maxProcesses: config.maxProcesses,
    fileSizeMb: config.fileSizeMb,
    openFiles: config.openFiles,
    scratchMb: config.scratchMb,
    totalMemoryMb: config.totalMemoryMb ?? config.memoryMb + 2 * config.scratchMb + 256,
  };
  const killOutputBytes = config.killOutputBytes ?? Math.max(1024 * 1024, 50 * config.maxOutputBytes);
  const sessions = new Set<CodeSession>();
  let launcherPromise: Promise<SandboxLauncher> | undefined;
  const poolConfig = config.pool && config.pool.size > 0 ? config.pool : undefined;
  const imports: ImportTracker | undefined =
    poolConfig?.preImport === "auto" ? createImportTracker() : undefined;
  /** What a pooled sandbox started now imports ahead of its session. */
  const preImportNow = (): readonly string[] =>
    imports ? imports.current() : Array.isArray(poolConfig?.preImport) ? poolConfig.preImport : [];
  let pool: SandboxPool | undefined;
  let closed = false;

  async function chooseLauncher(): Promise<SandboxLauncher> {
    if (!isExecutable(config.pythonPath)) {
      throw new TfgrpoError(
        "invalid_config",
        `code interpreter: python not found at ${config.pythonPath} (Debian/Ubuntu: sudo apt-get install python3 python3-numpy python3-sympy; tfgrpo doctor checks what the code interpreter needs)`,
        { details: { field: "pythonPath", pythonPath: config.pythonPath } },
      );
    }
    const base = {
      pythonPath: config.pythonPath,
      setprivPath: config.setprivPath,
      asRoot,
      uidPool,
      cgroups: config.cgroups,
    };
    const reasons: string[] = [];
    const bwrapPath = findExecutable(config.bwrapPath ?? "bwrap");
    if (process.platform !== "linux") reasons.push(`bubblewrap needs Linux, this is ${process.platform}`);
    else if (!bwrapPath) reasons.push(`bubblewrap (${config.bwrapPath ?? "bwrap"}) is not installed`);
    else if (asRoot && !isExecutable(config.setprivPath)) {
      // As root, RLIMIT_NPROC only binds once code runs under another uid: without setpriv a fork bomb is unbounded.
      reasons.push(`setpriv (util-linux) is missing at ${config.setprivPath}`);
    } else {
      const launcher = createBubblewrapLauncher({ ...base, bwrapPath });
      const probe = await probeSandbox(
        `${bwrapPath}|${config.setprivPath}|${config.pythonPath}|${asRoot}`,
        launcher,
      );
      if (probe.available) return launcher;
      reasons.push(`bubblewrap failed: ${probe.reason}`);
    }
    if (config.allowUnsandboxed) {
      const canSwitchUid = asRoot && isExecutable(config.setprivPath);
      return createUnsandboxedLauncher({ ...base, asRoot: canSwitchUid });
    }
    throw new TfgrpoError(
      "sandbox_unavailable",
      // One line naming what is missing and where to look: a probe's reason may carry the sandbox's stderr.
      `code interpreter refuses to run code: the sandbox is unavailable (${reasons.map((reason) => reason.replace(/\s*\n\s*/g, " ")).join("; ")}). ` +
        "Install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap) with user namespaces enabled, or pass allowUnsandboxed: true to accept weaker isolation; tfgrpo doctor checks this machine.",
      { details: { reasons } },
    );
  }

  function launcher(): Promise<SandboxLauncher> {
    if (!launcherPromise) {
      const chosen = chooseLauncher();
      launcherPromise = chosen;
      // A refusal is decided again on the next call (the sandbox may have been set up meanwhile).
      chosen.catch(() => {
        if (launcherPromise === chosen) launcherPromise = undefined;
      });
    }
    return launcherPromise;
  }

  /** The warm pool, created on first need (a run that never runs code starts no sandbox). */
  function warmPool(): SandboxPool | undefined {
    if (!poolConfig || closed) return undefined;
    pool ??= createSandboxPool({
      size: poolConfig.size,
      maxStarting: Math.max(1, Math.floor(availableParallelism() * poolConfig.startShare)),
      start: async (signal) =>
        startSandboxProcess({
          signal,
          launcher: await launcher(),
          limits,
          startTimeoutMs: config.startTimeoutMs,
          now,
          preImport: preImportNow(),
        }),
      stop: stopSandboxProcess,
    });
    return pool;
  }

  function openSession(): CodeSession {
    const sessionPool = warmPool();
    sessionPool?.want();
    let inner: Promise<CodeSession> | undefined;
    let sandbox: SandboxKind = "bubblewrap";
    const getInner = () => {
      inner ??= launcher().then((chosen) => {
        sandbox = chosen.kind;
        return createPythonSession({
          launcher: chosen,
          limits,
          timeoutMs: config.timeoutMs,
          maxOutputBytes: config.maxOutputBytes,
          killOutputBytes,
          startTimeoutMs: config.startTimeoutMs,
          now,
          ...(sessionPool ? { acquire: async () => sessionPool.take() } : {}),
        });
      });
      return inner;
    };
    // The modules this session's cells import, for the pool's "auto" pre-imports.
    const imported = imports ? new Set<string>() : undefined;
    let cells = 0;
    const session: CodeSession = {
      get sandbox() {
        return sandbox;
      },
      async run(code, runOptions) {
        cells++;
        if (imported) for (const name of importedModules(code)) imported.add(name);
        return (await getInner()).run(code, runOptions);
      },
      async close() {
        if (sessions.delete(session) && imported && cells > 0) imports?.record(imported);
        if (!inner) return;
        const opened = await inner.catch(() => undefined);
        await opened?.close();
      },
    };
    sessions.add(session);
    return session;
  }

  return {
    async run(code, runOptions) {
      const session = openSession();
      try {
        return await session.run(code, runOptions);
      } finally {
        await session.close();
      }
    },
    session: openSession,
    async sandbox() {
      return (await launcher()).kind;
    },
    async warm(ready) {
      await warmPool()?.whenReady(ready);
    },
    poolStats: () => (pool ? { ...pool.stats(), preImport: [...preImportNow()] } : undefined),
    async close() {
      closed = true;
      await Promise.all([...[...sessions].map((session) => session.close()), pool?.close()]);
    },
  };
}
