/**
 * What a point of held-out gain costs (issue 32), on the SIMULATED world: the demo setting (learning from an empty
 * library) and a planted-library setting (nine active math lessons written for this bench: three correct, three
 * harmful, three topic stubs), each learned with the default loop and with the paper's loop (`--no-exposure`, the
 * paper's keep-unless-worse gate at a fixed 2 samples per validation task, fixed G), over several seeds. Per run:
 * held-out gain (head minus the starting library, paired on the same test tasks and seeds, with its CI), training and
 * validation rollouts, model calls per role and USD at the sim's prices (examples/models.sim.yaml). Writes the
 * results table to stdout and, with --plot, gain against rollouts spent as an SVG. A benchmark, not a test.
 *
 *   pnpm --filter tfgrpo bench:learning-efficiency [--seeds 3] [--train 12] [--val 12] [--test 20] [--epochs 2]
 *     [--group-size 4] [--settings demo,planted] [--parallel 2] [--plot ../../docs/images/learning-efficiency.svg]
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { safeParseJson } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { allPitfalls, createSuite, readLesson, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { stepHistory } from "../src/learn/step-history.js";
import { simLearnArgs } from "../src/testing/sim-learn-args.js";
import { runCli } from "../src/testing/spawn-cli.js";
import { type CurvePoint, learningCurve } from "./learning-curve.js";
import { renderEfficiencyPlot } from "./render-efficiency-plot.js";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "3" },
    train: { type: "string", default: "12" },
    val: { type: "string", default: "12" },
    test: { type: "string", default: "20" },
    epochs: { type: "string", default: "2" },
    "group-size": { type: "string", default: "4" },
    k: { type: "string", default: "2" },
    settings: { type: "string", default: "demo,planted" },
    parallel: { type: "string", default: "2" },
    plot: { type: "string" },
    /** Extra flags for the default loop's runs (to measure a setting against the defaults), space-separated. */
    "default-flags": { type: "string", default: "" },
  },
});
const domain = "math";

/**
 * The planted library, written for this bench (not taken from the sim's critic or the lesson banks): for three math
 * pitfalls a correct lesson, a plausible harmful one, and a stub that names the topic without saying what to do.
 */
const planted: Record<string, string> = {
  G0: "For a negative number modulo n, give the least non-negative residue, between 0 and n - 1, not the signed remainder.",
  G1: "For a chain of percentage changes, apply each change to the amount left after the previous change, never to the starting amount.",
  G2: "For the average over groups of different sizes, multiply each group's mean by its size, add these up and divide by the total size.",
  G3: "The remainder of a negative number keeps the sign of that number, so report a negative remainder as it comes out.",
  G4: "For a chain of percentage changes, add the percentages together and apply the total once to the starting amount.",
  G5: "For a weighted mean, ignore the weights and average the plain values; weighting only matters for very large groups.",
  G6: "Remainders of negative numbers are a topic that needs attention in arithmetic tasks.",
  G7: "Percentage changes are a common topic in word problems about prices.",
  G8: "Averages over groups come up often in statistics questions.",
};

const loops = {
  default: values["default-flags"].split(" ").filter(Boolean),
  paper: ["--no-exposure", "--gate", "paper", "--val-k", "2"],
};
type Loop = keyof typeof loops;
type Setting = "demo" | "planted";

interface RunResult {
  setting: Setting;
  loop: Loop;
  seed: number;
  gain: number;
  gainLower: number;
  gainUpper: number;
  trainingRollouts: number;
  validationRollouts: number;
  callsByRole: Record<string, number>;
  usd: number;
  commits: number;
  seconds: number;
  /** After each step: rollouts spent so far and the held-out gain of the head then. */
  curve: Array<CurvePoint & { gain: number }>;
}

await using temporary = await temporaryDirectory("tfgrpo-learning-efficiency-");
const settings = values.settings.split(",") as Setting[];
const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => 31 + i);
const jobs = settings.flatMap((setting) =>
  seeds.flatMap((seed) => (Object.keys(loops) as Loop[]).map((loop) => ({ setting, seed, loop }))),
);
process.stderr.write(
  `learning efficiency (SIMULATED): ${jobs.length} runs, ${values.train} train / ${values.val} val / ${values.test} test math tasks, ${values.epochs} epochs, G = ${values["group-size"]}, test k = ${values.k}\n`,
);
for (const [id, text] of Object.entries(planted)) {
  const effects = allPitfalls
    .map((pitfall) => ({ pitfall: pitfall.id, effect: readLesson(pitfall.reading, text).effect }))
    .filter((reading) => reading.effect !== "none");
  process.stderr.write(
    `planted ${id}: the sim's policy reads it as ${effects.map((e) => `${e.effect} ${e.pitfall}`).join(", ") || "no effect"}\n`,
  );
}

async function runOne(job: { setting: Setting; seed: number; loop: Loop }): Promise<RunResult> {
  const started = Date.now();
  const directory = path.join(temporary.path, `${job.setting}-${job.loop}-${job.seed}`);
  const data = (split: string) => path.join(directory, `${split}.jsonl`);
  const sizes = { train: Number(values.train), val: Number(values.val), test: Number(values.test) };
  for (const split of ["train", "val", "test"] as const)
    await writeSuiteJsonl(data(split), createSuite({ domain, seed: job.seed, size: sizes[split], split }));
  const db = path.join(directory, "tfgrpo.db");
  if (job.setting === "planted") {
    const file = path.join(directory, "planted.json");
    await writeFile(file, JSON.stringify(planted));
    const imported = await runCli(["library", "import", file, "--domain", domain, "--db", db]);
    if (imported.code !== 0) throw new Error(`library import failed:\n${imported.stderr.slice(-2000)}`);
  }
  const runId = "efficiency";
  const learned = await runCli([
    ...simLearnArgs({
      seed: job.seed,
      domain,
      train: data("train"),
      val: data("val"),
      epochs: Number(values.epochs),
      groupSize: Number(values["group-size"]),
      concurrency: 8,
      db,
      runId,
    }),
    "--no-baseline",
    "--no-trace",
    ...loops[job.loop],
  ]);
  if (learned.code !== 0) throw new Error(`learn failed:\n${learned.stderr.slice(-3000)}`);

  const store = await createStore(db, { mustExist: true });
  const history = await stepHistory(store, runId);
  const all = await store.countTrajectories({ runId });
  const usage = await store.getUsageTotals(runId);
  const points = await learningCurve(store, runId, domain, history);
  await store.close();
  const trainingRollouts = history.reduce((sum, step) => sum + step.rollouts, 0);
  // The starting library gains nothing over itself: the planted v1, or no library for the demo.
  const start = job.setting === "planted" ? 1 : null;
  const heads = [...new Set(points.map((p) => p.head))].filter(
    (head): head is number => head !== null && head !== start,
  );
  const gains = new Map<number | null, { estimate: number; low: number; high: number }>([
    [start, { estimate: 0, low: 0, high: 0 }],
  ]);
  if (heads.length > 0) {
    const evaluated = await runCli([
      "eval",
      "--sim",
      "--domain",
      domain,
      "--library",
      start === null ? "none" : `${domain}@v${start}`,
      ...heads.flatMap((head) => ["--library", `${domain}@v${head}`]),
      "--data",
      data("test"),
      "--k",
      values.k,
      "--seed",
      String(job.seed),
      "--concurrency",
      "8",
      "--db",
      db,
      "--json",
      "--no-trace",
    ]);
    if (evaluated.code !== 0) throw new Error(`eval failed:\n${evaluated.stderr.slice(-2000)}`);
    const parsed = safeParseJson(evaluated.stdout);
    if (!parsed.success) throw new Error(`eval --json printed no JSON: ${evaluated.stdout.slice(0, 400)}`);
    const rows = (
      parsed.value as {
        rows: Array<{ deltaVsReference: { estimate: number; low: number; high: number } | null }>;
      }
    ).rows;
    for (const [i, head] of heads.entries())
      gains.set(head, rows[i + 1]!.deltaVsReference ?? { estimate: 0, low: 0, high: 0 });
  }
  const curve = points.map((point) => ({ ...point, gain: gains.get(point.head)?.estimate ?? 0 }));
  const final = gains.get(points.at(-1)?.head ?? start) ?? { estimate: 0, low: 0, high: 0 };
  if ((points.at(-1)?.rollouts ?? 0) !== all)
    process.stderr.write(
      `${job.setting} ${job.loop} seed ${job.seed}: the cost curve counts ${points.at(-1)?.rollouts} rollouts, the store ${all}\n`,
    );
  const byRole = usage.byRole as Record<string, { calls: number; costUsd: number }>;
  const result: RunResult = {
    ...job,
    gain: final.estimate,
    gainLower: final.low,
    gainUpper: final.high,
    trainingRollouts,
    validationRollouts: all - trainingRollouts,
    callsByRole: Object.fromEntries(Object.entries(byRole).map(([role, totals]) => [role, totals.calls])),
    usd: Object.values(byRole).reduce((sum, totals) => sum + totals.costUsd, 0),
    commits: history.filter((step) => step.decision === "commit").length,
    seconds: (Date.now() - started) / 1000,
    curve,
  };
  process.stderr.write(
    `${job.setting} ${job.loop} seed ${job.seed}: gain ${pts(result.gain)} [${pts(result.gainLower)}, ${pts(result.gainUpper)}], rollouts ${trainingRollouts} + ${result.validationRollouts} validation, ${result.commits} commit(s), $${result.usd.toFixed(4)}, ${result.seconds.toFixed(0)} s\n`,
  );
  return result;
}

const pts = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}`;
const results: RunResult[] = [];
const queue = [...jobs];
await Promise.all(
  Array.from({ length: Number(values.parallel) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) results.push(await runOne(job));
  }),
);

/** Mean over seeds with a 95% t interval (2 or more seeds). */
function meanInterval(samples: number[]): { mean: number; half: number } {
  const n = samples.length;
  const mean = samples.reduce((sum, v) => sum + v, 0) / n;
  if (n < 2) return { mean, half: Number.NaN };
  const variance = samples.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1);
  const t = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26][n - 2] ?? 1.96;
  return { mean, half: t * Math.sqrt(variance / n) };
}

const rows: string[] = [
  "| setting | loop | seeds | held-out gain, pts (95% CI over seeds) | training rollouts | validation rollouts | total | commits | usage records actor (one per rollout) / critic / curator calls | USD |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
];
for (const setting of settings) {
  for (const loop of Object.keys(loops) as Loop[]) {
    const runs = results.filter((r) => r.setting === setting && r.loop === loop);
    if (runs.length === 0) continue;
    const gain = meanInterval(runs.map((r) => r.gain));
    const mean = (pick: (r: RunResult) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
    const calls = (role: string) => mean((r) => r.callsByRole[role] ?? 0).toFixed(0);
    rows.push(
      `| ${setting} | ${loop === "default" ? "default" : "paper (--no-exposure --gate paper --val-k 2)"} | ${runs.length} | ${pts(gain.mean)} ± ${(gain.half * 100).toFixed(1)} | ${mean((r) => r.trainingRollouts).toFixed(0)} | ${mean((r) => r.validationRollouts).toFixed(0)} | ${mean((r) => r.trainingRollouts + r.validationRollouts).toFixed(0)} | ${mean((r) => r.commits).toFixed(1)} | ${calls("actor")} / ${calls("critic")} / ${calls("curator")} | ${mean((r) => r.usd).toFixed(4)} |`,
    );
  }
}
process.stdout.write(`${rows.join("\n")}\n\n`);

// The cost of reaching the paper loop's gain, read off the default loop's mean curve (steps line up across seeds: the
// same epochs and batches): the first step whose mean head gain is at least the paper loop's mean final gain.
const reach: string[] = [
  "| setting | paper loop: final gain, rollouts | default loop, mean over seeds after each step: rollouts spent, head gain | reached at | share of the paper loop's rollouts |",
  "| --- | --- | --- | --- | --- |",
];
for (const setting of settings) {
  const paper = results.filter((r) => r.setting === setting && r.loop === "paper");
  const ours = results.filter((r) => r.setting === setting && r.loop === "default");
  if (paper.length === 0 || ours.length === 0) continue;
  const paperGain = paper.reduce((sum, r) => sum + r.gain, 0) / paper.length;
  const paperRollouts =
    paper.reduce((sum, r) => sum + r.trainingRollouts + r.validationRollouts, 0) / paper.length;
  const steps = Math.min(...ours.map((r) => r.curve.length));
  const curve = Array.from({ length: steps }, (_, i) => ({
    rollouts: ours.reduce((sum, r) => sum + r.curve[i]!.rollouts, 0) / ours.length,
    gain: ours.reduce((sum, r) => sum + r.curve[i]!.gain, 0) / ours.length,
  }));
  const reached = curve.findIndex((point) => point.gain >= paperGain);
  reach.push(
    `| ${setting} | ${pts(paperGain)}, ${paperRollouts.toFixed(0)} | ${curve.map((p, i) => `s${i + 1}: ${p.rollouts.toFixed(0)}, ${pts(p.gain)}`).join("; ")} | ${reached < 0 ? "not reached" : `step ${reached + 1}`} | ${reached < 0 ? "-" : `${((curve[reached]!.rollouts / paperRollouts) * 100).toFixed(0)}%`} |`,
  );
}
process.stdout.write(`${reach.join("\n")}\n\nper run:\n`);
for (const r of results.sort((a, b) =>
  `${a.setting}${a.loop}${a.seed}`.localeCompare(`${b.setting}${b.loop}${b.seed}`),
))
  process.stdout.write(
    `  ${r.setting} ${r.loop} seed ${r.seed}: gain ${pts(r.gain)} [${pts(r.gainLower)}, ${pts(r.gainUpper)}], ${r.trainingRollouts} training + ${r.validationRollouts} validation rollouts, ${r.commits} commit(s), $${r.usd.toFixed(4)}; curve ${r.curve.map((p) => `${p.rollouts}:${pts(p.gain)}`).join(" ")}\n`,
  );
if (values.plot) {
  await writeFile(values.plot, renderEfficiencyPlot(results));
  process.stdout.write(`plot: ${values.plot}\n`);
}
