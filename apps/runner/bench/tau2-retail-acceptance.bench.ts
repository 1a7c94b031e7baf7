/**
 * Issue 33's acceptance run on τ²-bench retail (SIMULATED), as a user runs it: `tfgrpo data import --preset
 * tau2-retail` of test-data/tau2-bench-retail (with a validation split taken from train), the retail MCP server over
 * Streamable HTTP with one session per attempt, `learn --sim` (G = 4, 3 epochs), then `eval --k 4` on the 40 test
 * tasks of no library against the learned head with `--controls` (keyword stubs, shuffled, other domain), and, in a
 * database of its own, no library against three libraries built from the lesson bank test-data/lesson-bank-retail
 * (correct, harmful, unrelated). A benchmark, not a test: about 16 minutes on 2 loaded cores.
 * `--agent FILE` runs a team's agent module instead of tfgrpo's actor in every rollout (`learn --agent`, `eval
 * --agent`; e.g. examples/agents/tau2-retail-agent.mjs), each attempt given its own MCP session.
 *
 *   pnpm --filter tfgrpo bench:tau2-retail [--seed 7] [--epochs 3] [--group-size 4] [--val-share 0.2] [--out DIR]
 *     [--agent FILE] [--no-controls] [--no-bank]
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadRetailDb, serveRetailMcpHttp } from "@tfgrpo/tau2-retail";
import { parse, stringify } from "yaml";
import { repositoryRoot, runCli } from "../src/testing/spawn-cli.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "7" },
    epochs: { type: "string", default: "3" },
    "group-size": { type: "string", default: "4" },
    "val-share": { type: "string", default: "0.2" },
    concurrency: { type: "string", default: "16" },
    out: { type: "string" },
    "no-bank": { type: "boolean", default: false },
    "no-controls": { type: "boolean", default: false },
    agent: { type: "string" },
  },
});
const seed = values.seed;
const out = path.resolve(values.out ?? path.join(os.tmpdir(), "tfgrpo-tau2-retail-acceptance"));
await mkdir(out, { recursive: true });
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const note = (line: string) => process.stderr.write(`[${elapsed()}] ${line}\n`);
const report: string[] = [];

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const run = await runCli(args, { env });
  if (run.code !== 0) throw new Error(`tfgrpo ${args[0]} failed (${run.code}):\n${run.stderr.slice(-3000)}`);
  return run.stdout;
}

const data = path.join(out, "data");
await cli([
  "data",
  "import",
  path.join(repositoryRoot, "test-data/tau2-bench-retail"),
  "--preset",
  "tau2-retail",
  "--out-dir",
  data,
  "--val-share",
  values["val-share"]!,
  "--seed",
  seed,
]);
const lines = async (split: string) =>
  (await readFile(path.join(data, `${split}.jsonl`), "utf8")).split("\n").filter(Boolean).length;
note(
  `imported: ${await lines("train")} train, ${await lines("val")} validation, ${await lines("test")} test tasks`,
);

// One HTTP server for the whole run: every attempt opens its own MCP session, i.e. its own copy of db.json.
await using server = await serveRetailMcpHttp({ initial: loadRetailDb(path.join(data, "db.json")), port: 0 });
const settings = parse(await readFile(path.join(data, "tau2-retail.yaml"), "utf8"));
settings.tools.servers["tau2-retail"] = { url: server.url, environment: "session" };
const actorConfig = path.join(out, "actor.yaml");
await writeFile(actorConfig, stringify(settings));
const env = {
  TFGRPO_ACTOR_CONFIG: actorConfig,
  TFGRPO_CRITIC_CONFIG: path.join(data, "tau2-retail.critic.yaml"),
};
const common = [
  "--sim",
  "--seed",
  seed,
  "--domain",
  "tau2-retail",
  "--concurrency",
  values.concurrency!,
  ...(values.agent ? ["--agent", path.resolve(repositoryRoot, values.agent)] : []),
];

/** `eval --k 4` of some libraries on the 40 test tasks, in one database, as one run: the report's table. */
const evalOnTest = (db: string, runId: string, libraries: string[], extra: string[] = []) =>
  cli(
    [
      "eval",
      ...common,
      "--data",
      path.join(data, "test.jsonl"),
      "--k",
      "4",
      ...libraries.flatMap((library) => ["--library", library]),
      ...extra,
      "--db",
      db,
      "--run-id",
      runId,
    ],
    env,
  );

async function learned(): Promise<void> {
  const db = path.join(out, "learn.db");
  note(`learn --sim: G = ${values["group-size"]}, ${values.epochs} epochs`);
  const learnOut = await cli(
    [
      "learn",
      ...common,
      "--train",
      path.join(data, "train.jsonl"),
      "--val",
      path.join(data, "val.jsonl"),
      "--epochs",
      values.epochs!,
      "--group-size",
      values["group-size"]!,
      "--db",
      db,
      "--run-id",
      "acceptance-learn",
    ],
    env,
  );
  note("learned");
  report.push(`## learn (${elapsed()})\n\n${learnOut}`);
  await writeFile(path.join(out, "learn.txt"), learnOut);
  note(`eval: none vs the learned head${values["no-controls"] ? "" : ", with controls"}`);
  const evalOut = await evalOnTest(
    db,
    "acceptance-eval",
    ["none", "tau2-retail@head"],
    values["no-controls"] ? [] : ["--controls"],
  );
  note("evaluated the learned head");
  report.push(`## eval: learned head (${elapsed()})\n\n${evalOut}`);
  await writeFile(path.join(out, "eval-learned.txt"), evalOut);
}

/** The lesson bank as three versions of one library (correct, harmful, unrelated), then one evaluation. */
async function bank(): Promise<void> {
  const db = path.join(out, "bank.db");
  const written = JSON.parse(
    await readFile(path.join(repositoryRoot, "test-data/lesson-bank-retail/retail.json"), "utf8"),
  ) as { pitfalls: Record<string, Record<"correct" | "harmful", string[]>>; unrelated: string[] };
  const traps = Object.values(written.pitfalls);
  const libraries = {
    correct: traps.map((trap) => trap.correct[0]!),
    harmful: traps.map((trap) => trap.harmful[0]!),
    unrelated: written.unrelated,
  };
  for (const [index, [name, lessons]] of Object.entries(libraries).entries()) {
    const file = path.join(out, `bank-${name}.json`);
    await writeFile(file, JSON.stringify(Object.fromEntries(lessons.map((text, i) => [`G${i}`, text]))));
    await cli([
      "library",
      "import",
      file,
      "--domain",
      "tau2-retail",
      "--db",
      db,
      ...(index > 0 ? ["--replace"] : []),
    ]);
  }
  note("eval: none vs the lesson bank's correct (v1), harmful (v2), unrelated (v3)");
  const evalOut = await evalOnTest(db, "acceptance-bank", [
    "none",
    "tau2-retail@v1",
    "tau2-retail@v2",
    "tau2-retail@v3",
  ]);
  note("evaluated the lesson bank");
  report.push(`## eval: lesson bank, v1 correct / v2 harmful / v3 unrelated (${elapsed()})\n\n${evalOut}`);
  await writeFile(path.join(out, "eval-bank.txt"), evalOut);
}

// The bank's evaluation does not depend on learning: run side by side, each in its own database.
const results = await Promise.allSettled([learned(), ...(values["no-bank"] ? [] : [bank()])]);
process.stdout.write(`${report.join("\n")}\n`);
process.stdout.write(`total ${elapsed()}; outputs in ${out} (SIMULATED)\n`);
for (const result of results) if (result.status === "rejected") throw result.reason;
