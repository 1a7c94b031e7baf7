import { type SpawnedCli, spawnCli } from "../src/testing/spawn-cli.js";
import { simConfig } from "./bench-settings.js";
import type { BenchSim } from "./sim-thread.js";

async function waitForOutput(
  spawned: SpawnedCli,
  pattern: RegExp,
  what: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(spawned.output.stderr)) {
    if (spawned.child.exitCode !== null) throw new Error(`${what} exited early:\n${spawned.output.stderr}`);
    if (Date.now() > deadline) throw new Error(`${what}: no ${pattern} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startActorWorker(
  natsUrl: string,
  sim: BenchSim,
  concurrency: number,
): Promise<SpawnedCli> {
  const worker = spawnCli(
    [
      "serve",
      "--role",
      "actor",
      "--nats",
      natsUrl,
      "--config",
      simConfig,
      "--concurrency",
      String(concurrency),
    ],
    { env: { SIM_PORT: String(sim.port), TFGRPO_NATS_URL: "" } },
  );
  await waitForOutput(worker, /serving tfgrpo\.actor\.rollout/, "actor worker");
  return worker;
}

export async function stopWorker(worker: SpawnedCli): Promise<void> {
  if (worker.child.exitCode === null) {
    worker.child.kill("SIGTERM");
    const timer = setTimeout(() => worker.child.kill("SIGKILL"), 10_000);
    await worker.exited;
    clearTimeout(timer);
  }
}
