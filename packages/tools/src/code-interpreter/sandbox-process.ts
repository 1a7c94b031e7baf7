import { type ChildProcess, spawn } from "node:child_process";
import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { MarkedStream } from "./marked-stream.js";
import type { LaunchSpec, SandboxLauncher, SandboxLimits } from "./sandbox-launcher.js";

const driverEventSchema = z.object({
  event: z.enum(["ready", "cell"]),
  nonce: z.string().optional(),
  exitCode: z.number().int().optional(),
  limit: z.enum(["memory", "processes", "file_size"]).nullable().optional(),
});
export type DriverEvent = z.infer<typeof driverEventSchema>;

/** One started sandbox with its Python driver, ready for cells (see python-driver.ts for the protocol). */
export interface SandboxProcess {
  child: ChildProcess;
  spec: LaunchSpec;
  stdout: MarkedStream;
  stderr: MarkedStream;
  onEvent: ((event: DriverEvent) => void) | undefined;
  onExit: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
  /** Called after each chunk of output, so a flood is stopped within one pipe buffer of the limit. */
  onOutput: (() => void) | undefined;
  exited: Promise<void>;
  exitCode: number | null | undefined;
  exitSignal: NodeJS.Signals | null;
  startupMs: number;
}

export interface StartOptions {
  launcher: SandboxLauncher;
  limits: SandboxLimits;
  startTimeoutMs: number;
  now: () => number;
  /** Modules the driver imports before it says it is ready (a warm session's `import sympy` is then instant). */
  preImport?: readonly string[];
  /** Aborting it stops a start-up in progress (a pool that is closing); the start then fails. */
  signal?: AbortSignal;
}

/**
 * Starts one sandboxed Python driver and waits until it is ready (after its pre-imports). On failure nothing is left:
 * the process is killed and its uid, cgroups and temp files are released.
 */
export async function startSandboxProcess(options: StartOptions): Promise<SandboxProcess> {
  const startedAt = options.now();
  const spec = await options.launcher.launch(options.limits, { preImport: options.preImport ?? [] });
  let child: ChildProcess;
  try {
    child = spawn(spec.command, spec.args, {
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      env: spec.env,
      cwd: spec.cwd,
      // Own process group, so a kill reaches helpers started outside the sandbox's pid namespace too.
      detached: true,
    });
  } catch (error) {
    await spec.release();
    throw new TfgrpoError(
      "sandbox_unavailable",
      `could not start ${spec.command}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let resolveExited!: () => void;
  const proc: SandboxProcess = {
    child,
    spec,
    stdout: new MarkedStream(),
    stderr: new MarkedStream(),
    onEvent: undefined,
    onExit: undefined,
    onOutput: undefined,
    exited: new Promise<void>((resolve) => {
      resolveExited = resolve;
    }),
    exitCode: undefined,
    exitSignal: null,
    startupMs: 0,
  };
  const startupErrors: Buffer[] = [];
  let startupBytes = 0;
  child.stdout!.on("data", (chunk: Buffer) => {
    proc.stdout.push(chunk);
    proc.onOutput?.();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    if (startupBytes < 4096) {
      startupErrors.push(chunk);
      startupBytes += chunk.length;
    }
    proc.stderr.push(chunk);
    proc.onOutput?.();
  });
  child.stdin!.on("error", () => {
    // The process died; its exit is reported through the exit event.
  });
  let eventBuffer = "";
  const events = child.stdio[3] as NodeJS.ReadableStream;
  events.setEncoding("utf8");
  events.on("data", (text: string) => {
    eventBuffer += text;
    for (let newline = eventBuffer.indexOf("\n"); newline >= 0; newline = eventBuffer.indexOf("\n")) {
      const line = eventBuffer.slice(0, newline);
      eventBuffer = eventBuffer.slice(newline + 1);
      // Only the driver should write here; a line that does not parse means user code wrote to fd 3.
      const parsed = safeParseJson(line, driverEventSchema);
      if (parsed.success) proc.onEvent?.(parsed.value);
    }
  });
  child.on("error", () => {
    // Reported as an exit below (spawn failure emits "close" with an error code too).
  });
  child.on("exit", () => {
    // "close" waits for the pipes; a process that escaped the kill (possible only without the sandbox's pid
    // namespace) could hold them open forever, so they are closed from our side after a grace period.
    const grace = setTimeout(() => {
      for (const stream of child.stdio) stream?.destroy();
    }, 2000);
    grace.unref();
    child.once("close", () => clearTimeout(grace));
  });
  child.on("close", (code, signal) => {
    proc.exitCode = code;
    proc.exitSignal = signal;
    resolveExited();
    proc.onExit?.(code, signal);
  });

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(`the sandbox did not start within ${options.startTimeoutMs} ms`);
    }, options.startTimeoutMs);
    const fail = (message: string) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", cancel);
      proc.onEvent = undefined;
      proc.onExit = undefined;
      killSandboxProcess(proc);
      const detail = Buffer.concat(startupErrors).toString("utf8").trim();
      reject(
        new TfgrpoError("sandbox_unavailable", detail ? `${message}: ${detail}` : message, {
          details: { command: spec.command, sandbox: spec.sandbox },
        }),
      );
    };
    proc.onEvent = (event) => {
      if (event.event !== "ready") return;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", cancel);
      proc.onEvent = undefined;
      proc.onExit = undefined;
      resolve();
    };
    proc.onExit = (code, signal) =>
      fail(`the sandbox exited while starting (code ${code}, signal ${signal})`);
    const cancel = () => fail("the sandbox start-up was cancelled");
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener("abort", cancel, { once: true });
  }).catch(async (error) => {
    await proc.exited;
    await spec.release();
    throw error;
  });
  proc.startupMs = options.now() - startedAt;
  return proc;
}

export function killSandboxProcess(proc: SandboxProcess): void {
  if (proc.exitCode !== undefined) return;
  const pid = proc.child.pid;
  if (pid === undefined) return;
  try {
    // The outer bubblewrap process: its death takes the sandbox's pid namespace (and all in it) down.
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      proc.child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Kills the sandbox, waits for it to be gone, then releases its uid, cgroups and temp files. */
export async function stopSandboxProcess(proc: SandboxProcess): Promise<void> {
  killSandboxProcess(proc);
  await proc.exited;
  await proc.spec.release();
}
