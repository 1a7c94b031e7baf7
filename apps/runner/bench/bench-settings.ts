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

export const seed = 11;
export const concurrencies = quick ? [8, 32] : [8, 32, 64];
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
