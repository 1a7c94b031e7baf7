// Learning-step benchmark (SIMULATED world: the sim model server at a fixed latency per model call, no jitter).
//
//  1. One learning step (epochs 1, one batch: rollouts -> reward -> advantage -> consolidate -> validation -> gate)
//     at concurrency 8, 32 and 64, in process and over NATS (actor rollouts on a `tfgrpo serve --role actor` process
//     with --concurrency C; critic and curator in the runner). Reported: the step's wall time divided by the ideal,
//     the time its model calls need at that concurrency (defined below and printed with the tables).
//  2. Rollouts per second over NATS with 1, 2 and 4 actor worker processes (each --concurrency K).
//
// Both run in "tools" mode (math rollouts really run Python in the bubblewrap sandbox) and in "direct" mode (no tools:
// only model calls, so what is left over the ideal is orchestration).
//
// Run: pnpm --filter tfgrpo bench [-- --quick] [-- --latency 300] [-- --mode tools|direct|both]
//      [-- --only step|workers] [-- --transport in-process|nats|both] [-- --concurrency 8,32,64]
//      [-- --pool on|off|both] [-- --sim thread|in-process] [-- --verbose]   (pool size / pre-imports: TFGRPO_SANDBOX_POOL, TFGRPO_SANDBOX_PREIMPORT)
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { createSimServer } from "@tfgrpo/sim";
import { writeData } from "./bench-data.js";
import {
  concurrencies,
  latencyMs,
  modes,
  only,
  pools,
  seed,
  simPlacement,
  transports,
} from "./bench-settings.js";
import { measureLearningStep, type StepResult } from "./measure-learning-step.js";
import { measureRolloutThroughput, type ThroughputResult } from "./measure-rollout-throughput.js";
import { measureTransportFloor, type TransportFloor } from "./measure-transport-floor.js";
import { renderBenchResults, seconds } from "./render-bench-results.js";
import { type BenchSim, startSimThread } from "./sim-thread.js";

const benchStarted = performance.now();
const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-bench-step-"));
const loadBefore = os.loadavg()[0]!;
const sim: BenchSim =
  simPlacement === "thread"
    ? await startSimThread({ seed, latencyMs })
    : await createSimServer({ seed, latency: { meanMs: latencyMs, jitterMs: 0 } }).then((server) => ({
        url: server.url,
        port: server.port,
        stats: async () => server.stats(),
        close: () => server.close(),
      }));
process.env.SIM_PORT = String(sim.port);
const nats = await startNatsServer();
const steps: StepResult[] = [];
let throughput: ThroughputResult[] = [];
let floor: TransportFloor[] = [];
try {
  const data = await writeData(directory);
  process.stderr.write(
    `SIMULATED model server at ${sim.url} (${simPlacement === "thread" ? "own thread" : "on the runner's event loop"}), ${latencyMs} ms per call (no jitter); nats at ${nats.url}; ${os.cpus().length} CPU(s)\n`,
  );
  if (only !== "workers") {
    for (const mode of modes) {
      for (const pool of mode === "tools" ? pools : [undefined]) {
        for (const transport of transports) {
          for (const concurrency of concurrencies) {
            const result = await measureLearningStep({
              sim,
              data,
              directory,
              mode,
              transport,
              concurrency,
              natsUrl: nats.url,
              ...(pool === undefined ? {} : { pool }),
            });
            steps.push(result);
            process.stderr.write(
              `  step: ${mode}${pool === false ? " (no pool)" : ""}, ${transport}, C=${concurrency}: ${seconds(result.wallMs).toFixed(1)} s (ideal ${seconds(result.idealMs).toFixed(1)} s, load ${os.loadavg()[0]!.toFixed(1)})\n`,
            );
          }
        }
      }
    }
  }
  if (only !== "workers" && modes.includes("direct")) floor = await measureTransportFloor(sim, concurrencies);
  if (only !== "step")
    throughput = await measureRolloutThroughput({ sim, data, directory, natsUrl: nats.url });
} finally {
  await nats.stop();
  await sim.close();
  await rm(directory, { recursive: true, force: true });
}

process.stdout.write(`${renderBenchResults({ steps, throughput, floor, loadBefore, benchStarted })}\n`);
