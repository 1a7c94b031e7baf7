// Tracing overhead benchmark (SIMULATED world: the sim model server at a fixed latency per model call).
//
//  1. The cost of one span: `inSpan` with tracing off (the OpenTelemetry API's no-op) and on (SDK, batch export to the
//     local JSON-lines file), per span, over many spans.
//  2. One in-process learning step (direct mode, so only model calls and orchestration) with tracing off and on,
//     alternated, several times each: wall time and the runner's CPU time, medians, and the overhead of tracing.
//     Goal: on costs < 2% of a step's wall time; off costs nothing measurable.
//
// Run: pnpm --filter tfgrpo bench:tracing [-- --latency 500] [-- --repeats 5] [-- --concurrency 16]
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { inSpan } from "@tfgrpo/protocol";
import { createSimServer, createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { renderTable } from "../src/cli-output/render-table.js";
import { learnOptionsSchema } from "../src/learn/learn-options.js";
import { runLearning } from "../src/learn/run-learning.js";
import { createRuntime } from "../src/runtime/create-runtime.js";
import { repositoryRoot } from "../src/testing/spawn-cli.js";
import { startTracing } from "../src/tracing/start-tracing.js";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = argv.indexOf(`--${name}`);
  const value = index === -1 ? fallback : Number(argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const latencyMs = option("latency", 500);
const repeats = option("repeats", 3);
const concurrency = option("concurrency", 16);
const seed = 13;
const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-bench-tracing-"));
const loadBefore = os.loadavg()[0]!;
try {
  // 1. One span.
  const spans = 200_000;
  const perSpan = async () => {
    const started = performance.now();
    for (let i = 0; i < spans; i++) await inSpan("bench", { attributes: { i } }, async () => i);
    return ((performance.now() - started) * 1000) / spans;
  };
  await perSpan();
  const offMicros = await perSpan();
  let onMicros: number;
  {
    await using _tracing = await startTracing({
      serviceName: "bench",
      jsonlFile: path.join(directory, "spans.jsonl"),
      env: {},
    });
    onMicros = await perSpan();
  }

  // 2. Learning steps, off and on alternated (the machine's drift hits both alike).
  const sim = await createSimServer({ seed, latency: { meanMs: latencyMs, jitterMs: 0 } });
  process.env.SIM_PORT = String(sim.port);
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  await writeSuiteJsonl(train, createSuite({ domain: "math", seed, size: 8, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed, size: 8, split: "val" }));
  const results: Record<"off" | "on", { wallMs: number[]; cpuMs: number[]; spans: number[] }> = {
    off: { wallMs: [], cpuMs: [], spans: [] },
    on: { wallMs: [], cpuMs: [], spans: [] },
  };
  try {
    for (let round = 0; round <= repeats; round++) {
      for (const mode of round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
        const runId = `bench-${mode}-${round}`;
        const traceFile = path.join(directory, `${runId}.jsonl`);
        await using tracing = await startTracing({
          serviceName: "tfgrpo-runner",
          jsonlFile: traceFile,
          disabled: mode === "off",
          env: {},
        });
        await using runtime = await createRuntime({
          db: path.join(directory, `${runId}.db`),
          config: simConfig,
          localRoles: ["actor", "critic", "curator"],
          concurrency,
          log: () => {},
        });
        const cpuBefore = cpuMs();
        const started = performance.now();
        await runLearning({
          bus: runtime.bus,
          store: runtime.store,
          checkpointPath: path.join(directory, `${runId}-checkpoints.db`),
          start: {
            options: learnOptionsSchema.parse({
              runId,
              domain: "math",
              epochs: 1,
              groupSize: 4,
              batchSize: 8,
              concurrency,
              seed,
              mode: "direct",
              valK: 1,
              precheckSize: 0,
              baselineEachRound: false,
            }),
            data: { train, val },
          },
          progress: () => ({ update: () => {}, done: () => {} }),
          log: () => {},
        });
        const wall = performance.now() - started;
        const cpu = cpuMs() - cpuBefore;
        await tracing.flush();
        // Round 0 warms up both (module loading, JIT, the sim's first answers): not counted.
        if (round === 0) continue;
        results[mode].wallMs.push(wall);
        results[mode].cpuMs.push(cpu);
        results[mode].spans.push(
          tracing.enabled ? (await readFile(traceFile, "utf8")).trim().split("\n").length : 0,
        );
        process.stderr.write(
          `  round ${round}, tracing ${mode}: ${(wall / 1000).toFixed(2)} s wall, ${(cpu / 1000).toFixed(2)} s CPU\n`,
        );
      }
    }
  } finally {
    await sim.close();
  }

  const off = { wall: median(results.off.wallMs), cpu: median(results.off.cpuMs) };
  const on = { wall: median(results.on.wallMs), cpu: median(results.on.cpuMs) };
  const percent = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)}%`;
  process.stdout.write(
    `\nTracing overhead (SIMULATED world, ${latencyMs} ms per model call, concurrency ${concurrency}, direct mode; ${os.cpus().length} CPU(s), load ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after)\n\n`,
  );
  process.stdout.write(
    `${renderTable(
      [
        { header: "measure", value: (r) => r.measure },
        { header: "tracing off", value: (r) => r.off, align: "right" },
        { header: "tracing on", value: (r) => r.on, align: "right" },
        { header: "on vs off", value: (r) => r.delta, align: "right" },
      ],
      [
        {
          measure: "one span (µs)",
          off: offMicros.toFixed(2),
          on: onMicros.toFixed(2),
          delta: `+${(onMicros - offMicros).toFixed(2)} µs`,
        },
        {
          measure: `step wall time, median of ${repeats} (s)`,
          off: (off.wall / 1000).toFixed(2),
          on: (on.wall / 1000).toFixed(2),
          delta: percent(on.wall, off.wall),
        },
        {
          measure: `runner CPU per step, median of ${repeats} (s)`,
          off: (off.cpu / 1000).toFixed(2),
          on: (on.cpu / 1000).toFixed(2),
          delta: percent(on.cpu, off.cpu),
        },
        {
          measure: "spans per step",
          off: "0",
          on: String(median(results.on.spans)),
          delta: "",
        },
      ],
    )}\n`,
  );
  const spansPerStep = median(results.on.spans);
  process.stdout.write(
    `\nspan cost x spans per step = ${(((onMicros * spansPerStep) / 1000 / on.wall) * 100).toFixed(3)}% of the step's wall time (goal < 2%)\n`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}
