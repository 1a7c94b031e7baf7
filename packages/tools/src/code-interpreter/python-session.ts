import { randomBytes } from "node:crypto";
import { constants as osConstants } from "node:os";
import { TfgrpoError } from "@tfgrpo/protocol";
import { createCappedOutput } from "./capped-output.js";
import type { CodeResult, KilledReason, SandboxKind } from "./code-result.js";
import { listProcessesOfUid } from "./process-table.js";
import type { SandboxLauncher, SandboxLimits } from "./sandbox-launcher.js";
import { type SandboxProcess, startSandboxProcess, stopSandboxProcess } from "./sandbox-process.js";

export interface SessionOptions {
  launcher: SandboxLauncher;
  limits: SandboxLimits;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Output beyond this many bytes (both streams) kills the cell: a 100 MB print must not be drained forever. */
  killOutputBytes: number;
  startTimeoutMs: number;
  now: () => number;
  generateNonce?: () => string;
  /**
   * Where the session's sandbox comes from when it needs one (a warm pool): a process started for this session alone,
   * or undefined to start one here. Every process a session gets is its own and is destroyed when it is done with.
   */
  acquire?: () => Promise<SandboxProcess | undefined>;
}

export interface CodeSession {
  readonly sandbox: SandboxKind;
  run(code: string, options?: { signal?: AbortSignal }): Promise<CodeResult>;
  close(): Promise<void>;
}

type CellOutcome =
  | { kind: "done"; exitCode: number; limit: KilledReason | null }
  | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "output" };

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/**
 * A persistent Python process (inside the sandbox) that keeps variables between cells, like a notebook kernel.
 * A cell that is killed (timeout, output flood, abort) or that ends the process loses the session; the next cell
 * starts a fresh one and its result says so (`stateLost`).
 */
export function createPythonSession(options: SessionOptions): CodeSession {
  const generateNonce = options.generateNonce ?? (() => randomBytes(12).toString("hex"));
  let live: SandboxProcess | undefined;
  let hadProcess = false;
  let lostReason: string | undefined;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  async function start(): Promise<SandboxProcess> {
    const startedAt = options.now();
    const pooled = await options.acquire?.();
    if (pooled) {
      // Already started (and its modules imported): what this cell waited for is only the hand-over.
      pooled.startupMs = options.now() - startedAt;
      return pooled;
    }
    return startSandboxProcess(options);
  }

  const stop = stopSandboxProcess;

  async function runCell(code: string, signal: AbortSignal | undefined): Promise<CodeResult> {
    if (closed) throw new TfgrpoError("tool_error", "the code session is closed");
    let startupMs: number | undefined;
    const stateLost = hadProcess && live === undefined;
    const lostBecause = lostReason;
    if (!live) {
      live = await start();
      hadProcess = true;
      lostReason = undefined;
      startupMs = live.startupMs;
    }
    const proc = live;
    const started = options.now();
    const nonce = generateNonce();
    const marker = Buffer.from(`\0TFGRPO-END:${nonce}\0`);
    const stdout = createCappedOutput(options.maxOutputBytes);
    const stderr = createCappedOutput(options.maxOutputBytes);
    const countersBefore = await proc.spec.cgroup?.counters();

    const outcome = await new Promise<CellOutcome>((resolve) => {
      let stdoutDone = false;
      let stderrDone = false;
      let done: { exitCode: number; limit: KilledReason | null } | undefined;
      let settled = false;
      const settle = (value: CellOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        proc.onEvent = undefined;
        proc.onExit = undefined;
        proc.onOutput = undefined;
        resolve(value);
      };
      const maybeDone = () => {
        if (stdoutDone && stderrDone && done) settle({ kind: "done", ...done });
      };
      const timer = setTimeout(() => settle({ kind: "timeout" }), options.timeoutMs);
      proc.onOutput = () => {
        if (stdout.totalBytes + stderr.totalBytes > options.killOutputBytes) settle({ kind: "output" });
      };
      const onAbort = () => settle({ kind: "aborted" });
      if (signal?.aborted) {
        settle({ kind: "aborted" });
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      proc.stdout.begin(marker, stdout, () => {
        stdoutDone = true;
        maybeDone();
      });
      proc.stderr.begin(marker, stderr, () => {
        stderrDone = true;
        maybeDone();
      });
      proc.onEvent = (event) => {
        if (event.event !== "cell" || event.nonce !== nonce) return;
        done = { exitCode: event.exitCode ?? 1, limit: event.limit ?? null };
        maybeDone();
      };
      proc.onExit = (exitCode, exitSignal) => settle({ kind: "exit", code: exitCode, signal: exitSignal });
      if (proc.exitCode !== undefined) {
        settle({ kind: "exit", code: proc.exitCode, signal: proc.exitSignal });
        return;
      }
      proc.child.stdin!.write(`${JSON.stringify({ nonce, code })}\n`);
    });

    // The cgroup counters say exactly whether the pids or memory limit of the whole sandbox was hit in this cell.
    const countersAfter = countersBefore ? await proc.spec.cgroup?.counters() : undefined;
    const processLimitHit =
      !!countersAfter && countersAfter.processLimitHits > countersBefore!.processLimitHits;
    const outOfMemory = !!countersAfter && countersAfter.outOfMemoryKills > countersBefore!.outOfMemoryKills;

    let result: Omit<CodeResult, "stdout" | "stderr" | "durationMs" | "truncated" | "sandbox">;
    if (outcome.kind === "done") {
      // A process of the cell killed for memory is a kill even when the cell itself went on.
      const limit = outcome.limit ?? (outOfMemory ? "memory" : null);
      result = {
        exitCode: outcome.exitCode,
        signal: null,
        killed: limit !== null,
        ...(limit ? { killedReason: limit, notice: limitNotice(limit, options) } : {}),
      };
    } else {
      // The process is gone or must go: the session's variables are lost.
      let reason: KilledReason | undefined;
      if (outcome.kind === "timeout" && processLimitHit) reason = "processes";
      else if (outcome.kind === "timeout" && outOfMemory) reason = "memory";
      else if (outcome.kind === "timeout") {
        // A fork bomb looks like a timeout from outside. Failed forks in its output, or a process count at the
        // limit, tell them apart (the count alone is a snapshot of a bomb whose processes come and go).
        const forkFailed = /Cannot fork|fork: (retry|Resource temporarily unavailable)|BlockingIOError/.test(
          stderr.text(),
        );
        const running = proc.spec.uid === undefined ? 0 : (await listProcessesOfUid(proc.spec.uid)).length;
        if (forkFailed || running >= options.limits.maxProcesses - 1) reason = "processes";
      }
      await stop(proc);
      proc.stdout.flush();
      proc.stderr.flush();
      live = undefined;
      if (outcome.kind === "exit") {
        const { exitCode, signal: exitSignal } = exitStatus(outcome, proc.spec.sandbox);
        reason = exitSignal ? signalReason(exitSignal) : undefined;
        if (exitSignal === "SIGKILL" && outOfMemory) reason = "memory";
        lostReason = exitSignal
          ? `it was ended by ${exitSignal}`
          : `the Python process exited with code ${exitCode}`;
        result = {
          exitCode,
          signal: exitSignal,
          killed: exitSignal !== null,
          ...(reason ? { killedReason: reason } : {}),
          notice: `The Python process ended (${lostReason}); variables from earlier cells are gone.`,
        };
      } else {
        reason ??=
          outcome.kind === "timeout" ? "timeout" : outcome.kind === "output" ? "output_limit" : "aborted";
        lostReason = `the previous cell was stopped: ${reason}`;
        result = {
          exitCode: null,
          signal: "SIGKILL",
          killed: true,
          killedReason: reason,
          notice: `${limitNotice(reason, options)} The Python session was ended; variables from earlier cells are gone.`,
        };
      }
    }
    if (stateLost) {
      result.stateLost = true;
      const before = `Earlier variables are gone (${lostBecause ?? "the session was restarted"}); this cell ran in a fresh session.`;
      result.notice = result.notice ? `${before} ${result.notice}` : before;
    }
    return {
      stdout: stdout.text(),
      stderr: stderr.text(),
      ...result,
      durationMs: Math.max(0, options.now() - started),
      truncated: { stdout: stdout.truncated, stderr: stderr.truncated },
      sandbox: proc.spec.sandbox,
      ...(startupMs === undefined ? {} : { startupMs }),
    };
  }

  return {
    sandbox: options.launcher.kind,
    run(code, runOptions = {}) {
      // Cells of one session run one after another, as in a notebook.
      const next = queue.then(() => runCell(code, runOptions.signal));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      closed = true;
      await queue;
      if (live) {
        const proc = live;
        live = undefined;
        await stop(proc);
      }
    },
  };
}

/** bubblewrap reports a child killed by signal N as exit code 128+N. */
function exitStatus(
  outcome: { code: number | null; signal: NodeJS.Signals | null },
  sandbox: SandboxKind,
): { exitCode: number | null; signal: string | null } {
  if (outcome.signal) return { exitCode: null, signal: outcome.signal };
  const code = outcome.code;
  if (sandbox === "bubblewrap" && code !== null && code > 128 && signalNames.has(code - 128)) {
    return { exitCode: null, signal: signalNames.get(code - 128)! };
  }
  return { exitCode: code, signal: null };
}

function signalReason(signal: string): KilledReason {
  if (signal === "SIGXCPU") return "cpu";
  if (signal === "SIGXFSZ") return "file_size";
  return "signal";
}

function limitNotice(reason: KilledReason, options: SessionOptions): string {
  switch (reason) {
    case "timeout":
      return `The cell was stopped after the ${options.timeoutMs} ms time limit.`;
    case "memory":
      return `The cell ran out of memory (limit ${options.limits.memoryMb} MB).`;
    case "output_limit":
      return `The cell printed more than ${options.killOutputBytes} bytes and was stopped.`;
    case "cpu":
      return `The cell used more than ${options.limits.cpuSeconds} s of CPU time.`;
    case "processes":
      return `The cell hit the limit of ${options.limits.maxProcesses} processes.`;
    case "file_size":
      return `The cell tried to write a file larger than ${options.limits.fileSizeMb} MB.`;
    case "aborted":
      return "The cell was cancelled by the caller.";
    case "signal":
      return "The cell was ended by a signal.";
  }
}
