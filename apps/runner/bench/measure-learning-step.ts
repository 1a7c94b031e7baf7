import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { average } from "../src/learn/average.js";
import { learnOptionsSchema } from "../src/learn/learn-options.js";
import { rewardGroup, runRollouts } from "../src/learn/rollouts.js";
import { runLearning } from "../src/learn/run-learning.js";
import { createRuntime } from "../src/runtime/create-runtime.js";
import { startActorWorker, stopWorker } from "./actor-worker.js";
import type { BenchData } from "./bench-data.js";
import {
  batchTasks,
  groupSize,
  latencyMs,
  log,
  type Mode,
  seed,
  simConfig,
  type Transport,
  usePool,
} from "./bench-settings.js";
import { cpuSeconds } from "./cpu-seconds.js";
import { idealOfPhase } from "./ideal-time.js";
import { createTimeline } from "./phase-timeline.js";
import { rolloutJobs } from "./rollout-jobs.js";
import type { BenchSim } from "./sim-thread.js";

export interface StepResult {
  mode: Mode;
  /** Tools mode: whether the actor took warm sandboxes from its pool. */
  pool: boolean | undefined;
  /** Tools mode: median duration of the first code call of a train rollout (sandbox start-up included if cold). */
  firstToolMs: number | undefined;
  /** The machine's one-minute load average when the step started and when it ended. */
  load: [number, number];
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

/**
 * One learning step (epochs 1, one batch) at `concurrency`, in process or with the actor in a worker process over
 * NATS, after an untimed warm-up; its wall time, CPU time and phases beside their ideal.
 */
export async function measureLearningStep(options: {
  sim: BenchSim;
  data: BenchData;
  directory: string;
  mode: Mode;
  transport: Transport;
  concurrency: number;
  natsUrl?: string;
  /** Tools mode: with the actor's warm sandbox pool (default) or without. */
  pool?: boolean;
}): Promise<StepResult> {
  const { sim, data, mode, transport, concurrency } = options;
  const pool = mode === "tools" ? (options.pool ?? true) : undefined;
  const name = `${mode}-${transport}-c${concurrency}${pool === false ? "-nopool" : ""}`;
  const directory = path.join(options.directory, name);
  await mkdir(directory, { recursive: true });
  usePool(pool !== false);
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
    const loadBefore = os.loadavg()[0]!;
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
    const ended = timeline.end();
    const wallMs = performance.now() - started;
    const phaseSamples = await ended;
    const cpuS = cpuSeconds(process.pid) + cpuSeconds(worker?.child.pid) - cpuBefore;
    for (const phase of phaseSamples) log(`${phase.name}: ${JSON.stringify(phase.byKind)}`);
    if (outcome.history.length !== 1)
      throw new Error(`${name}: expected one step, got ${outcome.history.length}`);

    const trajectories = await runtime.store.listTrajectories({ runId });
    const train = trajectories.filter((t) => t.groupId.startsWith(`${runId}/s1/`));
    const validation = trajectories.filter((t) => !t.groupId.startsWith(`${runId}/s1/`));
    const errors = trajectories.filter((t) => t.error);
    if (errors.length > 0)
      throw new Error(`${name}: ${errors.length} failed rollout(s): ${errors[0]!.error}`);
    const phases = phaseSamples.map((phase) => {
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
    const firstToolMs = train.flatMap((t) => t.toolCalls.slice(0, 1).map((c) => c.durationMs));
    return {
      mode,
      pool,
      firstToolMs: firstToolMs.length > 0 ? median(firstToolMs) : undefined,
      load: [loadBefore, os.loadavg()[0]!],
      transport,
      concurrency,
      wallMs,
      idealMs: phases.reduce((sum, p) => sum + p.idealMs, 0),
      calls: phases.reduce((sum, p) => sum + p.calls, 0),
      rollouts: trajectories.length,
      meanToolMs: average(toolMs),
      meanRolloutMs: average(train.map((t) => t.latencyMs)),
      cpuS,
      phases,
    };
  } finally {
    if (worker) await stopWorker(worker);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
