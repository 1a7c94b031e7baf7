import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import { createSimServer } from "@tfgrpo/sim";
import { parseStoreUrl } from "@tfgrpo/store";
import pg from "pg";
import { checkpointPathFor } from "../src/learn/checkpoint-path.js";
import { learnOptionsSchema } from "../src/learn/learn-options.js";
import { runLearning } from "../src/learn/run-learning.js";
import { createRuntime } from "../src/runtime/create-runtime.js";
import { repositoryRoot } from "../src/testing/spawn-cli.js";

// One learning run of the scale benchmark in a process of its own (so its memory is its own): the SIMULATED model
// server in this process with no latency, every role in process, the store at `--db` (a SQLite file or a PostgreSQL
// URL). Prints one JSON line: per step its wall and CPU time, the process's RSS and the database's size when it began.

export interface ScaleStep {
  step: number;
  wallMs: number;
  cpuMs: number;
  rssBytes: number;
  /** The JS heap in use after a full collection (only when run with --expose-gc, at steps 1, 10, 25, 50, 75, 100). */
  heapBytes?: number;
  /** V8's heap spaces in use then, KB by space (code, old, large objects...). */
  heapSpacesKb?: Record<string, number>;
  dbBytes: number;
  trajectories: number;
  /** Model calls the step made (requests to the sim server). */
  calls: number;
}

export interface ScaleRun {
  poolSize: number;
  steps: ScaleStep[];
  /** Largest RSS of the process over the run (getrusage). */
  maxRssBytes: number;
  /** Database size before the run and after it. */
  dbBefore: number;
  dbAfter: number;
  trajectories: number;
  load: [number, number];
}

const argv = process.argv.slice(2);
const option = (name: string): string => {
  const index = argv.indexOf(`--${name}`);
  if (index === -1) throw new Error(`scale-learn-child needs --${name}`);
  return argv[index + 1]!;
};
const db = option("db");
const train = option("train");
const val = option("val");
const batchSize = Number(option("batch"));
const epochsSteps = Number(option("steps"));
const poolSize = Number(option("pool-size"));
const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");
const compactAfter = argv.includes("--compact-after") ? Number(option("compact-after")) : undefined;

const sim = await createSimServer({ seed: 5, latency: { meanMs: 0, jitterMs: 0 } });
process.env.SIM_PORT = String(sim.port);
const location = parseStoreUrl(db);
const postgres = location.backend === "postgres" ? new pg.Client({ connectionString: db }) : undefined;
await postgres?.connect();
const dbBytes = async (): Promise<number> => {
  if (postgres)
    return Number(
      (await postgres.query<{ n: string }>("SELECT pg_database_size(current_database()) AS n")).rows[0]!.n,
    );
  const size = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  const files = location.backend === "sqlite" ? [location.path, checkpointPathFor(db)] : [];
  return files.reduce((sum, file) => sum + size(file) + size(`${file}-wal`), 0);
};

try {
  await using runtime = await createRuntime({
    db,
    config: simConfig,
    localRoles: ["actor", "critic", "curator"],
    concurrency: 8,
    log: () => {},
  });
  const runId = `scale-${poolSize}`;
  const learnOptions = learnOptionsSchema.parse({
    runId,
    domain: "math",
    epochs: 1,
    groupSize: 2,
    batchSize,
    concurrency: 8,
    seed: 5,
    mode: "direct",
    valK: 1,
    precheckSize: 0,
    baselineEachRound: false,
    ...(compactAfter !== undefined ? { compactTrajectoriesAfter: compactAfter } : {}),
  });
  let pending: Promise<void> = Promise.resolve();
  const marks: {
    step: number;
    at: number;
    cpu: number;
    rss: number;
    requests: number;
    heap?: number;
    spaces?: Record<string, number>;
    db: number;
    trajectories: number;
  }[] = [];
  const collect = (globalThis as { gc?: () => void }).gc;
  // The time, CPU and RSS are taken as the step begins; the database's size and rows just after (their reads are
  // billed to the step, a constant few milliseconds).
  const mark = (step: number) => {
    const cpu = process.cpuUsage();
    const taken = {
      step,
      at: performance.now(),
      cpu: (cpu.user + cpu.system) / 1000,
      rss: process.memoryUsage().rss,
      requests: sim.stats().requests,
    };
    // A full collection costs the step it begins a few milliseconds: only at the steps the tables show.
    if (collect && [2, 11, 26, 51, 76, 101].includes(step)) {
      collect();
      const spaces = Object.fromEntries(
        v8
          .getHeapSpaceStatistics()
          .map((space) => [space.space_name, Math.round(space.space_used_size / 1024)]),
      );
      Object.assign(taken, { heap: process.memoryUsage().heapUsed, spaces });
    }
    pending = pending.then(async () => {
      marks.push({
        ...taken,
        db: await dbBytes(),
        trajectories: await runtime.store.countTrajectories({ runId }),
      });
    });
  };
  const loadBefore = os.loadavg()[0]!;
  const dbBefore = await dbBytes();
  // The run ends after `steps` steps: a budget would need costs, so the pool's first epoch is cut at that many batches.
  const controller = new AbortController();
  await runLearning({
    bus: runtime.bus,
    store: runtime.store,
    checkpointPath: checkpointPathFor(db),
    start: { options: learnOptions, data: { train, val } },
    progress: () => ({ update: () => {}, done: () => {} }),
    signal: controller.signal,
    log: (line) => {
      const started = /^step (\d+) \(epoch/.exec(line);
      if (!started) return;
      const step = Number(started[1]);
      if (step > epochsSteps) controller.abort(new Error("scale bench: enough steps"));
      else mark(step);
    },
  }).catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  mark(epochsSteps + 1);
  await pending;
  const steps: ScaleStep[] = marks.slice(0, -1).map((begin, index) => {
    const end = marks[index + 1]!;
    return {
      step: begin.step,
      wallMs: end.at - begin.at,
      cpuMs: end.cpu - begin.cpu,
      rssBytes: end.rss,
      ...(end.heap === undefined ? {} : { heapBytes: end.heap, heapSpacesKb: end.spaces }),
      dbBytes: end.db,
      trajectories: end.trajectories,
      calls: end.requests - begin.requests,
    };
  });
  const result: ScaleRun = {
    poolSize,
    steps,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    dbBefore,
    dbAfter: await dbBytes(),
    trajectories: marks.at(-1)!.trajectories,
    load: [loadBefore, os.loadavg()[0]!],
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await postgres?.end();
  await sim.close();
}
