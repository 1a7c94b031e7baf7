import path from "node:path";
import { repositoryRoot } from "../src/testing/spawn-cli.js";

// The benchmark's settings, from its command line (see learning-step.bench.ts).

export type Mode = "tools" | "direct";
export type Transport = "in-process" | "nats";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string): string | undefined => {
  const index = argv.indexOf(`--${name}`);
  return index === -1 ? undefined : argv[index + 1];
};
export const quick = flag("quick");
export const verbose = flag("verbose");
export const latencyMs = Number(option("latency") ?? 300);
const modeOption = option("mode") ?? "both";
export const modes: Mode[] = modeOption === "both" ? ["tools", "direct"] : [modeOption as Mode];
export const only = option("only");
if (!Number.isFinite(latencyMs) || latencyMs <= 0)
  throw new Error("--latency must be a positive number (ms)");
if (!modes.every((m) => m === "tools" || m === "direct"))
  throw new Error("--mode must be tools, direct or both");

const transportOption = option("transport") ?? "both";
export const transports: Transport[] =
  transportOption === "both" ? ["in-process", "nats"] : [transportOption as Transport];
if (!transports.every((t) => t === "in-process" || t === "nats"))
  throw new Error("--transport must be in-process, nats or both");
/**
 * Where the sim model server runs: on a thread of its own (default: a real provider's work is not on the runner's
 * CPU) or on the runner's own event loop (as before issue 19's last changes; its answers then count as overhead).
 */
const simOption = option("sim") ?? "thread";
if (simOption !== "thread" && simOption !== "in-process")
  throw new Error("--sim must be thread or in-process");
export const simPlacement: "thread" | "in-process" = simOption;
/**
 * Tools mode with the actor's warm sandbox pool (its default; size and pre-imports from TFGRPO_SANDBOX_POOL and
 * TFGRPO_SANDBOX_PREIMPORT when set), without it (TFGRPO_SANDBOX_POOL=0), or both.
 */
const poolOption = option("pool") ?? "on";
export const pools: boolean[] = poolOption === "both" ? [true, false] : [poolOption === "on"];
if (!["on", "off", "both"].includes(poolOption)) throw new Error("--pool must be on, off or both");
/** The pool the actor gets when it is on, as the bench's environment sets it. */
export const poolSetting = {
  size: process.env.TFGRPO_SANDBOX_POOL || "the concurrency, 8 to 32 (default)",
  preImport: process.env.TFGRPO_SANDBOX_PREIMPORT || "auto: what recent sessions imported (default)",
};
const poolEnvironment = { ...process.env };
/** Turns the actor's pool on (as configured) or off for runtimes and workers started after the call. */
export function usePool(on: boolean): void {
  if (on) process.env.TFGRPO_SANDBOX_POOL = poolEnvironment.TFGRPO_SANDBOX_POOL ?? "";
  else process.env.TFGRPO_SANDBOX_POOL = "0";
}

export const seed = 11;
const concurrencyOption = option("concurrency");
export const concurrencies = concurrencyOption
  ? concurrencyOption.split(",").map(Number)
  : quick
    ? [8, 32]
    : [8, 32, 64];
if (!concurrencies.every((c) => Number.isInteger(c) && c > 0))
  throw new Error("--concurrency must be positive integers, e.g. 8,32,64");
export const batchTasks = quick ? 8 : 16; // N tasks per step
export const groupSize = 4; // G rollouts per task
export const valTasks = quick ? 4 : 8; // held-out tasks: candidate and the empty library each run them once
export const workerCounts = quick ? [1, 2] : [1, 2, 4];
export const workerConcurrency = 8; // K: rollouts in flight per actor worker
export const throughputRollouts: Record<Mode, number> = quick
  ? { tools: 16, direct: 64 }
  : { tools: 32, direct: 128 };
export const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");
export const log = (line: string) => {
  if (verbose) process.stderr.write(`  | ${line}\n`);
};
