import { makeAsyncResource } from "@tfgrpo/protocol/testing";
import { type CliOptions, type SpawnedCli, spawnCli } from "./spawn-cli.js";

export interface RoleWorker extends SpawnedCli, AsyncDisposable {
  /** Sends `signal` (SIGTERM: finish jobs in flight) unless the worker has ended, and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartRoleWorkerOptions extends CliOptions {
  /** What the worker prints on stderr once it serves (default "serving"). */
  ready?: string | RegExp;
  /** How long it may take to get there (default 60 s: tsx compiles the CLI on a busy machine). */
  readyTimeoutMs?: number;
  /** After a disposal's SIGTERM, how long the worker has before SIGKILL (default 10 s). */
  stopTimeoutMs?: number;
}

/**
 * Starts `tfgrpo serve --role <role> <args>` as its own process and resolves once it serves; rejects, with what the
 * worker printed, if it exits or times out first. Dispose it with `await using worker = await startRoleWorker(...)`:
 * the worker is stopped (SIGTERM, then SIGKILL) however the test ends.
 */
export async function startRoleWorker(
  role: string,
  args: readonly string[],
  options: StartRoleWorkerOptions = {},
): Promise<RoleWorker> {
  const { ready = "serving", readyTimeoutMs = 60_000, stopTimeoutMs = 10_000, ...cliOptions } = options;
  const spawned = spawnCli(["serve", "--role", role, ...args], cliOptions);
  const { child, exited } = spawned;
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (running()) child.kill(signal);
    return exited;
  };
  const worker = makeAsyncResource({ ...spawned, stop }, async () => {
    if (!running()) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), stopTimeoutMs);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  });

  const isReady = () =>
    typeof ready === "string" ? spawned.output.stderr.includes(ready) : ready.test(spawned.output.stderr);
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (isReady()) done(resolve);
      };
      const ended = (code: number | null) =>
        done(() =>
          reject(
            new Error(
              `tfgrpo serve --role ${role} exited with ${code} before serving:\n${spawned.output.stderr}`,
            ),
          ),
        );
      const timer = setTimeout(
        () =>
          done(() =>
            reject(
              new Error(
                `tfgrpo serve --role ${role} did not serve within ${readyTimeoutMs} ms:\n${spawned.output.stderr}`,
              ),
            ),
          ),
        readyTimeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        child.stderr?.off("data", check);
        settle();
      };
      child.stderr?.on("data", check);
      exited.then(ended, (error: unknown) => done(() => reject(error)));
      check();
    });
  } catch (error) {
    await worker[Symbol.asyncDispose]();
    throw error;
  }
  return worker;
}
