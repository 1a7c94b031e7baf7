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
// Run: pnpm --filter @tfgrpo/runner bench [-- --quick] [-- --latency 300] [-- --mode tools|direct|both]
//      [-- --only step|workers] [-- --verbose]
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import type { RolloutRequest, Task, Trajectory } from "@tfgrpo/protocol";
import {
  createSimServer,
  createSuite,
  type SimServer,
  type SimServerStats,
  writeSuiteJsonl,
} from "@tfgrpo/sim";
import { renderTable } from "../src/cli-output/render-table.js";
import { learnOptionsSchema } from "../src/learn/learn-options.js";
import { rewardGroup, runRollouts } from "../src/learn/rollouts.js";
import { runLearning } from "../src/learn/run-learning.js";
import { createRuntime } from "../src/runtime/create-runtime.js";
import { repositoryRoot, type SpawnedCli, spawnCli } from "../src/testing/spawn-cli.js";

type Mode = "tools" | "direct";
type Transport = "in-process" | "nats";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string): string | undefined => {
  const index = argv.indexOf(`--${name}`);
  return index === -1 ? undefined : argv[index + 1];
};
const quick = flag("quick");
const verbose = flag("verbose");
const latencyMs = Number(option("latency") ?? 300);
const modeOption = option("mode") ?? "both";
const modes: Mode[] = modeOption === "both" ? ["tools", "direct"] : [modeOption as Mode];
const only = option("only");
if (!Number.isFinite(latencyMs) || latencyMs <= 0)
  throw new Error("--latency must be a positive number (ms)");
if (!modes.every((m) => m === "tools" || m === "direct"))
  throw new Error("--mode must be tools, direct or both");

const seed = 11;
const concurrencies = quick ? [8, 32] : [8, 32, 64];
const batchTasks = quick ? 8 : 16; // N tasks per step
const groupSize = 4; // G rollouts per task
const valTasks = quick ? 4 : 8; // held-out tasks: candidate and the empty library each run them once
const workerCounts = quick ? [1, 2] : [1, 2, 4];
const workerConcurrency = 8; // K: rollouts in flight per actor worker
const throughputRollouts: Record<Mode, number> = quick
  ? { tools: 16, direct: 64 }
  : { tools: 32, direct: 128 };
const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");
const log = (line: string) => {
  if (verbose) process.stderr.write(`  | ${line}\n`);
};

/**
 * CPU seconds of a process and of its children it has waited for (the sandboxed Python sessions), from /proc (Linux;
 * 0 elsewhere). Clock ticks are 100 per second on Linux.
 */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14).
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) / 100;
  } catch {
    return 0;
  }
}

// --- the ideal ----------------------------------------------------------------------------------------------------

/**
 * Makespan, in model-call units, of chains of sequential calls on `slots` parallel slots, each chain taken in order
 * by the earliest free slot (what a bounded work queue does). A chain holds its slot from first call to last.
 */
function makespan(chains: readonly number[], slots: number): number {
  const free = new Array<number>(Math.max(1, slots)).fill(0);
  for (const length of chains) {
    let best = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[best]!) best = i;
    free[best]! += length;
  }
  return Math.max(...free);
}

const idealDefinition = [
  `ideal = sum over the step's phases of (model calls on the phase's critical path at concurrency C) x latency; tool`,
  `execution, the Bus, the store and LangGraph count as overhead. Calls per phase come from the sim server's request`,
  `stats (chat completions + embeddings), snapshotted at each phase boundary. Per phase:`,
  `  rollout, validation  each rollout is a chain of its own model calls (Trajectory.usage.calls, 2 for a math`,
  `                       rollout: code, then answer); chains are list-scheduled in dispatch order on C slots (a`,
  `                       rollout holds its slot throughout). A rollout shown a library adds 1 call (the task's`,
  `                       embedding) and the library's own embedding adds 1 in sequence (once per version); judge`,
  `                       calls of the reward and other calls: ceil(n / C)`,
  `  reward               judge calls: ceil(n / C) (math rewards are verifiers: usually 0 calls)`,
  `  advantage            one chain per learnable group: ceil(summaries per group / 8) + 1 (summaries 8 at a time,`,
  `                       then the group advantage); groups list-scheduled on C slots`,
  `  consolidate          one curator request: its calls in sequence, except conflict checks, 4 at a time`,
  `  others               ceil(calls / C)`,
  `ratio = wall time of runLearning (load data -> last checkpoint) / ideal. 1.00 would be pure model latency.`,
].join("\n");

// --- phases of one step, from the graph's progress callbacks and log lines ----------------------------------------

interface PhaseSample {
  name: string;
  startMs: number;
  endMs: number;
  byKind: Record<string, number>;
}

function statsDelta(before: SimServerStats, after: SimServerStats): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [kind, n] of Object.entries(after.byKind)) {
    const d = (n ?? 0) - ((before.byKind as Record<string, number | undefined>)[kind] ?? 0);
    if (d > 0 && kind !== "models" && kind !== "corpus") delta[kind] = d;
  }
  return delta;
}

function createTimeline(sim: SimServer) {
  const phases: PhaseSample[] = [];
  let current: { name: string; startMs: number; stats: SimServerStats } | null = null;
  const seen = new Set<string>();
  const close = () => {
    if (!current) return;
    phases.push({
      name: current.name,
      startMs: current.startMs,
      endMs: performance.now(),
      byKind: statsDelta(current.stats, sim.stats()),
    });
    current = null;
  };
  /** Ends the current phase and starts `name`, once per name (later marks of a seen name are ignored). */
  const mark = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    close();
    current = { name, startMs: performance.now(), stats: sim.stats() };
  };
  return { mark, end: close, phases };
}

// --- one learning step ------------------------------------------------------------------------------------------

interface StepResult {
  mode: Mode;
  transport: Transport;
  concurrency: number;
  wallMs: number;
  idealMs: number;
  calls: number;
  rollouts: number;
  meanToolMs: number;
  /** Mean latency of one train rollout inside the actor (Trajectory.latencyMs): model calls + tools + actor code. */
  meanRolloutMs: number;
  /** CPU seconds the runner process and the actor worker (with their sandbox children) used during the step. */
  cpuS: number;
  phases: { name: string; wallMs: number; idealMs: number; calls: number }[];
}

interface Data {
  train: string;
  val: string;
  trainTasks: Task[];
}

async function writeData(directory: string): Promise<Data> {
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  const trainTasks = createSuite({ domain: "math", seed, size: batchTasks, split: "train" });
  await writeSuiteJsonl(train, trainTasks);
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed, size: valTasks, split: "val" }));
  return { train, val, trainTasks };
}

/** Model calls of each rollout, in dispatch order; `taskEmbedding` adds the embedding of the task a library needs. */
function chainsOf(trajectories: readonly Trajectory[], taskEmbedding = false): number[] {
  return [...trajectories]
    .sort((a, b) => a.taskId.localeCompare(b.taskId) || a.attempt - b.attempt)
    .map((t) => t.usage.calls + (taskEmbedding && withLibrary(t) ? 1 : 0));
}

const withLibrary = (t: Trajectory) => t.libraryVersion !== null && t.libraryVersion !== undefined;

function idealOfPhase(
  phase: PhaseSample,
  concurrency: number,
  rollouts: readonly Trajectory[],
): { units: number; calls: number } {
  const k = phase.byKind;
  const calls = Object.values(k).reduce((a, b) => a + b, 0);
  const spread = (n: number) => Math.ceil(n / concurrency);
  switch (phase.name) {
    case "rollout":
    case "validation": {
      // A rollout shown a library embeds its task first (when the library's entries were embedded: once per
      // version, before the first such rollout can rank them).
      const embeddings = k.embeddings ?? 0;
      const shown = rollouts.filter(withLibrary).length;
      const taskEmbedding = shown > 0 && embeddings >= shown;
      const libraryEmbeddings = taskEmbedding ? embeddings - shown : 0;
      const chains = chainsOf(rollouts, taskEmbedding);
      const inChains = chains.reduce((a, b) => a + b, 0);
      const judge = k.judge ?? 0;
      const rest = Math.max(0, calls - inChains - libraryEmbeddings - judge);
      return {
        units: libraryEmbeddings + makespan(chains, concurrency) + spread(judge) + spread(rest),
        calls,
      };
    }
    case "advantage": {
      const groups = k["group-advantage"] ?? 0;
      const summaries = k["trajectory-summary"] ?? 0;
      if (groups === 0) return { units: spread(calls), calls };
      const perGroup = Math.ceil(summaries / groups / 8) + 1;
      const rest = Math.max(0, calls - groups - summaries);
      return { units: makespan(new Array(groups).fill(perGroup), concurrency) + spread(rest), calls };
    }
    case "consolidate": {
      const checks = k["conflict-check"] ?? 0;
      return { units: calls - checks + Math.ceil(checks / 4), calls };
    }
    default:
      return { units: spread(calls), calls };
  }
}

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

async function startActorWorker(natsUrl: string, sim: SimServer, concurrency: number): Promise<SpawnedCli> {
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

async function stopWorker(worker: SpawnedCli): Promise<void> {
  if (worker.child.exitCode === null) {
    worker.child.kill("SIGTERM");
    const timer = setTimeout(() => worker.child.kill("SIGKILL"), 10_000);
    await worker.exited;
    clearTimeout(timer);
  }
}

async function learningStep(options: {
  sim: SimServer;
  data: Data;
  directory: string;
  mode: Mode;
  transport: Transport;
  concurrency: number;
  natsUrl?: string;
}): Promise<StepResult> {
  const { sim, data, mode, transport, concurrency } = options;
  const name = `${mode}-${transport}-c${concurrency}`;
  const directory = path.join(options.directory, name);
  await mkdir(directory, { recursive: true });
  const worker =
    transport === "nats" ? await startActorWorker(options.natsUrl!, sim, concurrency) : undefined;
  try {
    await using runtime = await createRuntime({
      db: path.join(directory, "tfgrpo.db"),
      ...(transport === "nats" ? { nats: options.natsUrl! } : {}),
      config: simConfig,
      localRoles: transport === "nats" ? ["critic", "curator"] : ["actor", "critic", "curator"],
      concurrency,
      log,
    });
    // Warm-up, untimed: a few rollouts and their rewards through this runtime (and worker), so module loading, the
    // sandbox machinery's first start and the JIT are not billed to the step (real workers are long-lived).
    const warmId = `warm-${name}`;
    const warmJobs = rolloutJobs(warmId, data.trainTasks.slice(0, 2), 4, mode);
    await runRollouts({ bus: runtime.bus, store: runtime.store, runId: warmId, jobs: warmJobs });
    for (const task of data.trainTasks.slice(0, 2)) {
      await rewardGroup({
        bus: runtime.bus,
        store: runtime.store,
        runId: warmId,
        task,
        groupId: `${warmId}/${task.id}`,
        groundTruth: "required",
      });
    }

    const runId = `bench-${name}`;
    const timeline = createTimeline(sim);
    const learnOptions = learnOptionsSchema.parse({
      runId,
      domain: "math",
      epochs: 1,
      groupSize,
      batchSize: batchTasks,
      concurrency,
      seed,
      mode,
      valK: 1,
      precheckSize: 0,
      baselineEachRound: true,
    });
    const cpuBefore = cpuSeconds(process.pid) + cpuSeconds(worker?.child.pid);
    const started = performance.now();
    timeline.mark("setup");
    const outcome = await runLearning({
      bus: runtime.bus,
      store: runtime.store,
      checkpointPath: path.join(directory, "checkpoints.db"),
      start: { options: learnOptions, data: { train: data.train, val: data.val } },
      progress: (label) => {
        const phase = label.endsWith(" rollouts")
          ? "rollout"
          : label.endsWith(" advantages")
            ? "advantage"
            : label.endsWith(" validation")
              ? "validation"
              : null;
        if (phase) timeline.mark(phase);
        return {
          update: () => {},
          done: () => {
            if (phase === "rollout") timeline.mark("reward");
            if (phase === "advantage") timeline.mark("consolidate");
            if (phase === "validation") timeline.mark("gate+finish");
          },
        };
      },
      log: (line) => {
        if (/group\(s\) to learn from/.test(line)) timeline.mark("advantage");
        log(line);
      },
    });
    timeline.end();
    const wallMs = performance.now() - started;
    const cpuS = cpuSeconds(process.pid) + cpuSeconds(worker?.child.pid) - cpuBefore;
    for (const phase of timeline.phases) log(`${phase.name}: ${JSON.stringify(phase.byKind)}`);
    if (outcome.history.length !== 1)
      throw new Error(`${name}: expected one step, got ${outcome.history.length}`);

    const trajectories = await runtime.store.listTrajectories({ runId });
    const train = trajectories.filter((t) => t.groupId.startsWith(`${runId}/s1/`));
    const validation = trajectories.filter((t) => !t.groupId.startsWith(`${runId}/s1/`));
    const errors = trajectories.filter((t) => t.error);
    if (errors.length > 0)
      throw new Error(`${name}: ${errors.length} failed rollout(s): ${errors[0]!.error}`);
    const phases = timeline.phases.map((phase) => {
      const ideal = idealOfPhase(
        phase,
        concurrency,
        phase.name === "rollout" ? train : phase.name === "validation" ? validation : [],
      );
      return {
        name: phase.name,
        wallMs: phase.endMs - phase.startMs,
        idealMs: ideal.units * latencyMs,
        calls: ideal.calls,
      };
    });
    const toolMs = trajectories.flatMap((t) => t.toolCalls.map((c) => c.durationMs));
    return {
      mode,
      transport,
      concurrency,
      wallMs,
      idealMs: phases.reduce((sum, p) => sum + p.idealMs, 0),
      calls: phases.reduce((sum, p) => sum + p.calls, 0),
      rollouts: trajectories.length,
      meanToolMs: mean(toolMs),
      meanRolloutMs: mean(train.map((t) => t.latencyMs)),
      cpuS,
      phases,
    };
  } finally {
    if (worker) await stopWorker(worker);
  }
}

// --- rollout throughput over NATS -----------------------------------------------------------------------------

interface ThroughputResult {
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

/** `count` rollouts of the empty library, spread over `tasks` (task i % tasks.length, attempt i / tasks.length). */
function rolloutJobs(runId: string, tasks: readonly Task[], count: number, mode: Mode) {
  return Array.from({ length: count }, (_, i) => {
    const task = tasks[i % tasks.length]!;
    const attempt = Math.floor(i / tasks.length);
    const groupId = `${runId}/${task.id}`;
    const input: RolloutRequest = {
      runId,
      task,
      groupId,
      attempt,
      library: null,
      mode,
      temperature: 0.7,
      seed: seed * 1000 + i,
      purpose: "eval",
    };
    return { id: `${groupId}/${attempt}`, input };
  });
}

async function rolloutThroughput(options: {
  sim: SimServer;
  data: Data;
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
          meanToolMs: mean(toolMs),
          meanRolloutMs: mean(trajectories.map((t) => t.latencyMs)),
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

// --- main -------------------------------------------------------------------------------------------------------

const seconds = (ms: number) => ms / 1000;
function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
const benchStarted = performance.now();
const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-bench-step-"));
const loadBefore = os.loadavg()[0]!;
const sim = await createSimServer({ seed, latency: { meanMs: latencyMs, jitterMs: 0 } });
process.env.SIM_PORT = String(sim.port);
const nats = await startNatsServer();
const steps: StepResult[] = [];
let throughput: ThroughputResult[] = [];
try {
  const data = await writeData(directory);
  process.stderr.write(
    `SIMULATED model server at ${sim.url}, ${latencyMs} ms per call (no jitter); nats at ${nats.url}; ${os.cpus().length} CPU(s)\n`,
  );
  if (only !== "workers") {
    for (const mode of modes) {
      for (const transport of ["in-process", "nats"] as const) {
        for (const concurrency of concurrencies) {
          const result = await learningStep({
            sim,
            data,
            directory,
            mode,
            transport,
            concurrency,
            natsUrl: nats.url,
          });
          steps.push(result);
          process.stderr.write(
            `  step: ${mode}, ${transport}, C=${concurrency}: ${seconds(result.wallMs).toFixed(1)} s (ideal ${seconds(result.idealMs).toFixed(1)} s)\n`,
          );
        }
      }
    }
  }
  if (only !== "step") throughput = await rolloutThroughput({ sim, data, directory, natsUrl: nats.url });
} finally {
  await nats.stop();
  await sim.close();
  await rm(directory, { recursive: true, force: true });
}

const out: string[] = [
  "",
  `Learning-step benchmark — SIMULATED world (sim model server, ${latencyMs} ms per model call, no jitter), ${os.cpus().length} CPU(s),`,
  `load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end (other work on the machine shares the CPUs).`,
  `One step: ${batchTasks} train tasks x G=${groupSize} rollouts, validation of the candidate and the empty library on ${valTasks} held-out tasks.`,
  `"tools": math rollouts run Python in the bubblewrap sandbox; "direct": no tools (model calls only). Over NATS the actor`,
  "is one `tfgrpo serve --role actor --concurrency C` process; critic and curator run in the runner.",
  `rollout ms: mean latency of one train rollout inside the actor (its model calls alone: calls x ${latencyMs} ms).`,
  "tool call ms: mean duration of one code-interpreter call.",
  "CPU s: CPU time of the runner process (which also hosts the sim server) and the actor worker, with their sandboxed",
  `Python children, during the step (${os.cpus().length} CPUs give at most ${os.cpus().length} CPU s per wall second).`,
  "",
];
if (steps.length > 0) {
  out.push(
    renderTable(
      [
        { header: "mode", value: (r: StepResult) => r.mode },
        { header: "transport", value: (r) => r.transport },
        { header: "C", value: (r) => r.concurrency },
        { header: "rollouts", value: (r) => r.rollouts },
        { header: "model calls", value: (r) => r.calls },
        { header: "wall s", value: (r) => seconds(r.wallMs).toFixed(2), align: "right" },
        { header: "ideal s", value: (r) => seconds(r.idealMs).toFixed(2), align: "right" },
        { header: "wall/ideal", value: (r) => (r.wallMs / r.idealMs).toFixed(2), align: "right" },
        { header: "rollout ms", value: (r) => r.meanRolloutMs.toFixed(0), align: "right" },
        {
          header: "tool call ms",
          value: (r) => (r.mode === "tools" ? r.meanToolMs.toFixed(0) : "-"),
          align: "right",
        },
        { header: "CPU s", value: (r) => r.cpuS.toFixed(1), align: "right" },
      ],
      steps,
    ),
  );
  out.push("\nWhere the time goes, per phase: wall s / ideal s (model calls)");
  const phaseNames = ["setup", "rollout", "reward", "advantage", "consolidate", "validation", "gate+finish"];
  out.push(
    renderTable(
      [
        { header: "mode", value: (r: StepResult) => r.mode },
        { header: "transport", value: (r) => r.transport },
        { header: "C", value: (r) => r.concurrency },
        ...phaseNames.map((name) => ({
          header: name,
          value: (r: StepResult) => {
            const phase = r.phases.find((p) => p.name === name);
            return phase
              ? `${seconds(phase.wallMs).toFixed(2)}/${seconds(phase.idealMs).toFixed(2)} (${phase.calls})`
              : "-";
          },
          align: "right" as const,
        })),
      ],
      steps,
    ),
  );
  out.push(`\n${idealDefinition}`);
}
if (throughput.length > 0) {
  out.push(
    `\nRollout throughput over NATS: ${throughputRollouts.tools} (tools) / ${throughputRollouts.direct} (direct) rollouts dispatched at once (runRollouts), each worker a separate`,
  );
  out.push(
    `\`tfgrpo serve --role actor --concurrency ${workerConcurrency}\` process, after a warm-up batch. ideal/s = rollouts / (their model`,
  );
  out.push(`calls list-scheduled on workers x ${workerConcurrency} slots x ${latencyMs} ms).\n`);
  out.push(
    renderTable(
      [
        { header: "mode", value: (r: ThroughputResult) => r.mode },
        { header: "workers", value: (r) => r.workers },
        { header: "in flight", value: (r) => r.inFlight },
        { header: "rollouts", value: (r) => r.rollouts },
        { header: "wall s", value: (r) => seconds(r.wallMs).toFixed(2), align: "right" },
        { header: "rollouts/s", value: (r) => ((r.rollouts * 1000) / r.wallMs).toFixed(1), align: "right" },
        { header: "ideal/s", value: (r) => ((r.rollouts * 1000) / r.idealMs).toFixed(1), align: "right" },
        { header: "of ideal", value: (r) => `${Math.round((100 * r.idealMs) / r.wallMs)}%`, align: "right" },
        { header: "rollout ms", value: (r) => r.meanRolloutMs.toFixed(0), align: "right" },
        {
          header: "tool call ms",
          value: (r) => (r.mode === "tools" ? r.meanToolMs.toFixed(0) : "-"),
          align: "right",
        },
        { header: "CPU s", value: (r) => r.cpuS.toFixed(1), align: "right" },
      ],
      throughput,
    ),
  );
}
out.push(`\nbench time ${seconds(performance.now() - benchStarted).toFixed(0)} s`);
process.stdout.write(`${out.join("\n")}\n`);
