import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const cli = path.join(repositoryRoot, "apps/runner/src/cli.ts");
export const builtCli = path.join(repositoryRoot, "apps/runner/dist/cli.js");
// An absolute loader URL, so the CLI runs from any working directory.
const tsx = pathToFileURL(createRequire(path.join(repositoryRoot, "package.json")).resolve("tsx")).href;

export interface SpawnedCli {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

export interface CliOptions {
  cwd?: string;
  /** Added to this process's environment; a variable set to undefined is removed. */
  env?: NodeJS.ProcessEnv;
  /** Written to the command's stdin, which is then closed. Without it stdin is empty. */
  stdin?: string;
  /** Runs the built CLI (apps/runner/dist/cli.js, as an install runs it) instead of the sources through tsx. */
  built?: boolean;
}

/** Starts `tfgrpo <args>` as its own process (TypeScript sources through tsx), collecting its output. */
export function spawnCli(args: readonly string[], options: CliOptions = {}): SpawnedCli {
  const command = options.built ? [builtCli] : ["--conditions=source", "--import", tsx, cli];
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: options.cwd ?? repositoryRoot,
    env: { ...process.env, ...options.env },
    // stdin is a pipe only when there is something to write: "ignore" would drop what a test means to send.
    stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  const output = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    // "close", not "exit": the output pipes are drained by then, so nothing the command printed is missed.
    child.once("close", (code) => resolve(code));
  });
  return { child, output, exited };
}

/** Runs `tfgrpo <args>` to the end. */
export async function runCli(
  args: readonly string[],
  options: CliOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const spawned = spawnCli(args, options);
  const code = await spawned.exited;
  return { code, ...spawned.output };
}

/**
 * Waits until a spawned command's stderr matches `pattern` and returns the match; fails with its stderr when the
 * command exits first or nothing matches within `timeoutMs`.
 */
export async function waitForStderr(
  spawned: SpawnedCli,
  pattern: RegExp,
  what: string,
  timeoutMs = 120_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = spawned.output.stderr.match(pattern);
    if (match) return match;
    if (spawned.child.exitCode !== null) throw new Error(`${what} exited early:\n${spawned.output.stderr}`);
    if (Date.now() > deadline)
      throw new Error(`${what}: no ${pattern} within ${timeoutMs} ms:\n${spawned.output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
