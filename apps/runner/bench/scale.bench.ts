import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Task } from "@tfgrpo/protocol";
import { createSuite } from "@tfgrpo/sim";
import { startPostgresServer } from "@tfgrpo/store/testing";
import type { ScaleRun } from "./scale-learn-child.js";
import { measureQueries } from "./scale-queries.js";

// How a learning run's cost grows (issue 28; docs/performance.md): runner RSS against the pool's size, per-step wall
// and CPU over 100 steps, database growth per step and per trajectory on SQLite and PostgreSQL, and the reads of
// `library show`, the report and the studio on a run of 100,000 trajectories. SIMULATED world, no model latency.
//
//   pnpm --filter @tfgrpo/runner bench:scale [--only rss|steps|queries] [--pools 1000,10000,30000,100000]
//     [--steps 100] [--backends sqlite,postgres] [--trajectories 100000]

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = argv.indexOf(`--${name}`);
  return index === -1 ? undefined : argv[index + 1];
};
const only = option("only");
const pools = (option("pools") ?? "1000,10000,30000,100000").split(",").map(Number);
const stepCount = Number(option("steps") ?? 100);
const backends = (option("backends") ?? "sqlite,postgres").split(",");
const trajectoryCount = Number(option("trajectories") ?? 100_000);
const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const out = (line = "") => process.stdout.write(`${line}\n`);

/**
 * A pool of `size` simulated math tasks: the sim's suite of 1,000 repeated under new ids (generating 100,000 distinct
 * ones takes the sim minutes); every line is parsed apart, so nothing is shared in memory between repeats.
 */
async function writePool(directory: string, size: number): Promise<string> {
  const file = path.join(directory, `train-${size}.jsonl`);
  if (existsSync(file)) return file;
  const base = createSuite({ domain: "math", seed: 5, size: Math.min(size, 1000), split: "train" });
  const lines: string[] = [];
  for (let i = 0; i < size; i++) {
    const task: Task = base[i % base.length]!;
    lines.push(JSON.stringify({ ...task, id: `${task.id}-r${Math.floor(i / base.length)}` }));
  }
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

async function learnInChild(args: {
  db: string;
  train: string;
  val: string;
  batch: number;
  steps: number;
  "pool-size": number;
}): Promise<ScaleRun> {
  const { stdout } = await run(
    process.execPath,
    [
      "--conditions=source",
      "--expose-gc",
      "--import",
      "tsx",
      path.join(here, "scale-learn-child.ts"),
      ...Object.entries(args).flatMap(([key, value]) => [`--${key}`, String(value)]),
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ScaleRun;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
};
const window = (result: ScaleRun, from: number, to: number) =>
  result.steps.filter((s) => s.step >= from && s.step <= to);

/** Least squares of y = a + b x1 + c x2 (the normal equations, by Cramer's rule). */
function fitTwo(rows: readonly (readonly [number, number, number])[]): [number, number, number] {
  const sum = (f: (r: readonly [number, number, number]) => number) => rows.reduce((t, r) => t + f(r), 0);
  const n = rows.length;
  const [s1, s2, sy] = [sum((r) => r[0]), sum((r) => r[1]), sum((r) => r[2])];
  const [s11, s12, s22] = [sum((r) => r[0] * r[0]), sum((r) => r[0] * r[1]), sum((r) => r[1] * r[1])];
  const [s1y, s2y] = [sum((r) => r[0] * r[2]), sum((r) => r[1] * r[2])];
  const m = [
    [n, s1, s2],
    [s1, s11, s12],
    [s2, s12, s22],
  ];
  const det = (x: number[][]) =>
    x[0]![0]! * (x[1]![1]! * x[2]![2]! - x[1]![2]! * x[2]![1]!) -
    x[0]![1]! * (x[1]![0]! * x[2]![2]! - x[1]![2]! * x[2]![0]!) +
    x[0]![2]! * (x[1]![0]! * x[2]![1]! - x[1]![1]! * x[2]![0]!);
  const d = det(m);
  const replaced = (column: number) =>
    m.map((row, i) => row.map((v, j) => (j === column ? [sy, s1y, s2y][i]! : v)));
  return [det(replaced(0)) / d, det(replaced(1)) / d, det(replaced(2)) / d];
}

const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-bench-scale-"));
const dataDirectory = path.join(os.tmpdir(), "tfgrpo-bench-scale-data");
await mkdir(dataDirectory, { recursive: true });
out(
  `# tfgrpo scale bench (SIMULATED world, no model latency), ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ""}, node ${process.version}`,
);
out(
  `load average at start: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
try {
  const val = path.join(dataDirectory, "val.jsonl");
  await writeFile(
    val,
    `${createSuite({ domain: "math", seed: 5, size: 4, split: "val" })
      .map((task) => JSON.stringify(task))
      .join("\n")}\n`,
  );

  if (only === undefined || only === "rss") {
    for (const backend of backends) {
      await using postgres = backend === "postgres" ? await startPostgresServer() : undefined;
      out(`\n## Runner RSS against the pool (batch 20, G 2, 3 steps, ${backend}, one process per pool)\n`);
      out(
        "| pool | max RSS MB | RSS after step 3 MB | step wall ms (median) | step CPU ms (median) | database growth KB per step | load |",
      );
      out("|---:|---:|---:|---:|---:|---:|---|");
      const results: ScaleRun[] = [];
      for (const size of pools) {
        const train = await writePool(dataDirectory, size);
        const result = await learnInChild({
          db: postgres
            ? await postgres.createDatabase(`scale_rss_${size}`)
            : path.join(directory, `rss-${size}.db`),
          train,
          val,
          batch: 20,
          steps: 3,
          "pool-size": size,
        });
        results.push(result);
        out(
          `| ${size} | ${mb(result.maxRssBytes)} | ${mb(result.steps.at(-1)!.rssBytes)} | ${median(result.steps.map((s) => s.wallMs)).toFixed(0)} | ${median(result.steps.map((s) => s.cpuMs)).toFixed(0)} | ${((result.dbAfter - result.dbBefore) / result.steps.length / 1024).toFixed(0)} | ${result.load.map((n) => n.toFixed(1)).join(" → ")} |`,
        );
      }
      const first = results[0]!;
      const last = results.at(-1)!;
      out(
        `\nmax RSS at ${last.poolSize} tasks / at ${first.poolSize}: ${(last.maxRssBytes / first.maxRssBytes).toFixed(2)}× (acceptance: within 2×)`,
      );
    }
  }

  if (only === undefined || only === "steps") {
    const train = await writePool(dataDirectory, 1000);
    for (const backend of backends) {
      await using postgres = backend === "postgres" ? await startPostgresServer() : undefined;
      const db = postgres ? await postgres.createDatabase("scale_steps") : path.join(directory, "steps.db");
      out(
        `\n## ${stepCount} steps on ${backend} (pool 1,000, batch 4, G 2, 4 validation tasks x 1, no baseline)\n`,
      );
      const result = await learnInChild({ db, train, val, batch: 4, steps: stepCount, "pool-size": 1000 });
      out("| step | wall ms | CPU ms | RSS MB | JS heap MB (after GC) | database MB | trajectories |");
      out("|---:|---:|---:|---:|---:|---:|---:|");
      for (const step of result.steps.filter((s) => [1, 2, 10, 25, 50, 75, 100].includes(s.step)))
        out(
          `| ${step.step} | ${step.wallMs.toFixed(0)} | ${step.cpuMs.toFixed(0)} | ${mb(step.rssBytes)} | ${step.heapBytes === undefined ? "" : mb(step.heapBytes)} | ${mb(step.dbBytes)} | ${step.trajectories} |`,
        );
      // Steps differ in work (a step whose proposals make a candidate also validates it): compare per model call,
      // and fit time = a + b x calls + c x step, whose c says what a later step costs more for being later.
      const early = window(result, 6, 15);
      const late = window(result, stepCount - 9, stepCount);
      const ratio = (pick: (s: ScaleRun["steps"][number]) => number) =>
        median(late.map(pick)) / median(early.map(pick));
      const perCall = (pick: (s: ScaleRun["steps"][number]) => number) => (s: ScaleRun["steps"][number]) =>
        pick(s) / Math.max(1, s.calls);
      out(
        `\nsteps ${stepCount - 9}-${stepCount} over steps 6-15 (medians): wall ${ratio((s) => s.wallMs).toFixed(2)}×, CPU ${ratio((s) => s.cpuMs).toFixed(2)}×; per model call: wall ${ratio(perCall((s) => s.wallMs)).toFixed(2)}×, CPU ${ratio(perCall((s) => s.cpuMs)).toFixed(2)}× (acceptance: within 1.2×)`,
      );
      const steady = result.steps.filter((s) => s.step >= 6);
      for (const [name, pick] of [
        ["wall", (s: ScaleRun["steps"][number]) => s.wallMs],
        ["CPU", (s: ScaleRun["steps"][number]) => s.cpuMs],
      ] as const) {
        const [a, b, c] = fitTwo(steady.map((s) => [s.calls, s.step, pick(s)] as const));
        out(
          `fit over steps 6-${stepCount}: ${name} ms = ${a.toFixed(0)} + ${b.toFixed(2)} x calls + ${c.toFixed(3)} x step; step ${stepCount} against step 10: ${((c * (stepCount - 10)) / (a + b * median(steady.map((s) => s.calls)) + c * 10)).toLocaleString("en", { style: "percent", maximumFractionDigits: 1 })} at the median ${median(steady.map((s) => s.calls))} calls`,
        );
      }
      const grown = result.dbAfter - result.dbBefore;
      out(
        `database growth: ${mb(grown)} MB over ${result.steps.length} steps = ${(grown / result.steps.length / 1024).toFixed(1)} KB per step, ${(grown / Math.max(1, result.trajectories) / 1024).toFixed(2)} KB per trajectory (${result.trajectories} trajectories, checkpoints included); load ${result.load.map((n) => n.toFixed(1)).join(" → ")}`,
      );
      out(
        `heap spaces KB after GC: ${JSON.stringify(result.steps.filter((s) => s.heapSpacesKb).map((s) => [s.step, s.heapSpacesKb]))}`,
      );
      out(
        `raw [step, wall ms, CPU ms, model calls]: ${JSON.stringify(result.steps.map((s) => [s.step, Math.round(s.wallMs), Math.round(s.cpuMs), s.calls]))}`,
      );
    }
  }

  if (only === undefined || only === "queries") {
    out(`\n## Reads on a run of ${trajectoryCount} trajectories (SQLite)\n`);
    out("| read | ms |");
    out("|---|---:|");
    for (const [name, ms] of await measureQueries(path.join(directory, "queries.db"), trajectoryCount))
      out(`| ${name} | ${ms.toFixed(1)} |`);
  }
  out(
    `\nload average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}
