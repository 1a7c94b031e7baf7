import { accessSync, constants } from "node:fs";
import path from "node:path";
import { createPythonSession } from "./python-session.js";
import type { SandboxLauncher } from "./sandbox-launcher.js";

export interface SandboxProbe {
  available: boolean;
  /** Why the sandbox cannot be used, for the error message. */
  reason?: string;
}

const probes = new Map<string, Promise<SandboxProbe>>();

export function findExecutable(name: string, searchPath = process.env.PATH ?? ""): string | undefined {
  if (name.includes("/")) return isExecutable(name) ? name : undefined;
  for (const dir of [...searchPath.split(":"), "/usr/bin", "/bin", "/usr/sbin", "/sbin"]) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the real sandbox once and runs a trivial cell in it: bubblewrap may be installed and still fail
 * (user namespaces disabled, seccomp in a container). A success is cached per configuration for the process.
 */
export function probeSandbox(key: string, launcher: SandboxLauncher): Promise<SandboxProbe> {
  let probe = probes.get(key);
  if (!probe) {
    probe = runProbe(launcher);
    probes.set(key, probe);
    // Only success is remembered: a failure may be passing (a start-up timeout on a loaded machine), and
    // probing again costs one sandbox start.
    void probe.then((result) => {
      if (!result.available) probes.delete(key);
    });
  }
  return probe;
}

async function runProbe(launcher: SandboxLauncher): Promise<SandboxProbe> {
  const session = createPythonSession({
    launcher,
    limits: {
      memoryMb: 512,
      cpuSeconds: 10,
      maxProcesses: 8,
      fileSizeMb: 1,
      openFiles: 64,
      scratchMb: 1,
      totalMemoryMb: 1024,
    },
    timeoutMs: 15_000,
    maxOutputBytes: 4096,
    killOutputBytes: 65_536,
    startTimeoutMs: 15_000,
    now: () => performance.now(),
  });
  try {
    const result = await session.run("print(6 * 7)");
    if (result.exitCode === 0 && result.stdout.trim() === "42") return { available: true };
    return {
      available: false,
      reason: `a test cell failed in the sandbox (exit ${result.exitCode}): ${result.stderr.trim().slice(0, 500)}`,
    };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  } finally {
    await session.close();
  }
}
