import path from "node:path";
import { performance } from "node:perf_hooks";
import { makespan } from "@tfgrpo/actor/testing";
import { average } from "../src/learn/average.js";
import { runRollouts } from "../src/learn/rollouts.js";
import { createRuntime } from "../src/runtime/create-runtime.js";
import type { SpawnedCli } from "../src/testing/spawn-cli.js";
import { startActorWorker, stopWorker } from "./actor-worker.js";
import type { BenchData } from "./bench-data.js";
import {
  latencyMs,
  log,
  type Mode,
  modes,
  simConfig,
  throughputRollouts,
  workerConcurrency,
  workerCounts,
} from "./bench-settings.js";
import { cpuSeconds } from "./cpu-seconds.js";
import { chainsOf } from "./ideal-time.js";
import { rolloutJobs } from "./rollout-jobs.js";
import type { BenchSim } from "./sim-thread.js";

export interface ThroughputResult {
  mode: Mode;
  workers: number;
  inFlight: number;
  rollouts: number;
  wallMs: number;
  idealMs: number;
  meanToolMs: number;
  meanRolloutMs: number;
  cpuS: number;
}

/** Rollouts per second over NATS with 1, 2 (and 4) actor worker processes, each mode after a warm-up batch. */
export async function measureRolloutThroughput(options: {
  sim: BenchSim;
  data: BenchData;
  directory: string;
  natsUrl: string;
}): Promise<ThroughputResult[]> {
  const { sim, data } = options;
  const results: ThroughputResult[] = [];
  const workers: SpawnedCli[] = [];
  await using runtime = await createRuntime({
    db: path.join(options.directory, "throughput.db"),
    nats: options.natsUrl,
    config: simConfig,
    localRoles: [],
    concurrency: 64,
    log,
  });
  try {
    for (const count of workerCounts) {
      // Workers are added, never restarted: 1, then 2, then 4 (the new ones start in parallel).
      workers.push(
        ...(await Promise.all(
          Array.from({ length: count - workers.length }, () =>
            startActorWorker(options.natsUrl, sim, workerConcurrency),
          ),
        )),
      );
      for (const mode of modes) {
        // A warm-up batch (2 per worker), so the new workers are past their first rollouts before the timed one.
        const warmId = `warm-${mode}-w${count}`;
        await runRollouts({
          bus: runtime.bus,
          store: runtime.store,
          runId: warmId,
          jobs: rolloutJobs(warmId, data.trainTasks, count * 2, mode),
        });
        const pids = [process.pid, ...workers.map((w) => w.child.pid)];
        const cpuBefore = pids.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0);
        const runId = `throughput-${mode}-w${count}`;
        const jobs = rolloutJobs(runId, data.trainTasks, throughputRollouts[mode], mode);
        const started = performance.now();
        await runRollouts({ bus: runtime.bus, store: runtime.store, runId, jobs });
        const wallMs = performance.now() - started;
        const cpuS = pids.reduce<number>((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
        const trajectories = await runtime.store.listTrajectories({ runId });
        const errors = trajectories.filter((t) => t.error);
        if (errors.length > 0)
          throw new Error(`${runId}: ${errors.length} failed rollout(s): ${errors[0]!.error}`);
        const toolMs = trajectories.flatMap((t) => t.toolCalls.map((c) => c.durationMs));
        const inFlight = count * workerConcurrency;
        results.push({
          mode,
          workers: count,
          inFlight,
          rollouts: trajectories.length,
          wallMs,
          idealMs: makespan(chainsOf(trajectories), inFlight) * latencyMs,
          meanToolMs: average(toolMs),
          meanRolloutMs: average(trajectories.map((t) => t.latencyMs)),
          cpuS,
        });
        process.stderr.write(`  rollouts/s: ${mode}, ${count} worker(s) done\n`);
      }
    }
  } finally {
    await Promise.all(workers.map(stopWorker));
  }
  return results;
}
