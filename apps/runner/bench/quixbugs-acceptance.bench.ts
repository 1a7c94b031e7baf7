/**
 * Issue 41's acceptance run on QuixBugs code repair (SIMULATED), as a user runs it: `tfgrpo data import --preset
 * quixbugs` of test-data/quixbugs (30 programs split by program: train / validation / test), the code-repair MCP
 * server over Streamable HTTP with one workspace per MCP session, `learn --sim` (G = 4), then `eval --k 4` on the
 * held-out programs of no library against the learned head with `--controls` (keyword stubs, shuffled, other domain).
 * Every attempt edits and runs a real program in the sandbox; the reward runs the final file on every test case.
 * A benchmark, not a test.
 *
 *   pnpm --filter tfgrpo bench:quixbugs [--seed 7] [--epochs 2] [--group-size 4] [--case-ms 1000] [--reward share|solved] [--out DIR]
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { serveRepairMcpHttp } from "@tfgrpo/code-repair";
import { createStore } from "@tfgrpo/store";
import { parse, stringify } from "yaml";
import { repositoryRoot, runCli } from "../src/testing/spawn-cli.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "7" },
    epochs: { type: "string", default: "2" },
    "group-size": { type: "string", default: "4" },
    "val-share": { type: "string", default: "0.2" },
    concurrency: { type: "string", default: "4" },
    // A test case's CPU limit, in the workspace and in the reward: low, so endless loops cost little here.
    "case-ms": { type: "string", default: "1000" },
    // The reward learning and eval use: the passing share (graded) or solved (1 or 0).
    reward: { type: "string", default: "share" },
    out: { type: "string" },
  },
});
const seed = values.seed;
const out = path.resolve(values.out ?? path.join(os.tmpdir(), "tfgrpo-quixbugs-acceptance"));
await mkdir(out, { recursive: true });
const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const note = (line: string) => process.stderr.write(`[${elapsed()}] ${line}\n`);

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const run = await runCli(args, { env });
  if (run.code !== 0) throw new Error(`tfgrpo ${args[0]} failed (${run.code}):\n${run.stderr.slice(-3000)}`);
  return run.stdout;
}

const data = path.join(out, "data");
await cli([
  "data",
  "import",
  path.join(repositoryRoot, "test-data/quixbugs"),
  "--preset",
  "quixbugs",
  "--out-dir",
  data,
  "--val-share",
  values["val-share"]!,
  "--seed",
  seed,
]);
const programs = async (split: string) =>
  (await readFile(path.join(data, `${split}.jsonl`), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { meta: { program: string } }).meta.program);
const split = {
  train: await programs("train"),
  val: await programs("val"),
  test: await programs("test"),
};
note(`imported: train ${split.train.join(" ")}; val ${split.val.join(" ")}; test ${split.test.join(" ")}`);

const caseTimeoutMs = Number(values["case-ms"]);
// One HTTP server for the whole run: every attempt opens its own MCP session, i.e. its own workspace.
await using server = await serveRepairMcpHttp({
  dataDir: path.join(data, "quixbugs"),
  port: 0,
  sandbox: { caseTimeoutMs },
});
const settings = parse(await readFile(path.join(data, "code-repair.yaml"), "utf8"));
settings.tools.servers["code-repair"] = { url: server.url, environment: "session" };
const actorConfig = path.join(out, "actor.yaml");
await writeFile(actorConfig, stringify(settings));
const env = {
  TFGRPO_ACTOR_CONFIG: actorConfig,
  TFGRPO_CRITIC_CONFIG: path.join(data, "code-repair.critic.yaml"),
  TFGRPO_REPAIR_CASE_TIMEOUT_MS: String(caseTimeoutMs),
  TFGRPO_REPAIR_REWARD: values.reward!,
};
const common = ["--sim", "--seed", seed, "--domain", "code-repair", "--concurrency", values.concurrency!];

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
await writeFile(path.join(out, "learn.txt"), learnOut);
const library = await cli(["library", "show", "--domain", "code-repair", "--db", db]).catch(
  (error: Error) => `(library show failed: ${error.message.slice(0, 200)})`,
);
note("eval: none vs the learned head on the held-out programs, with controls");
const evalOut = await cli(
  [
    "eval",
    ...common,
    "--data",
    path.join(data, "test.jsonl"),
    "--k",
    "4",
    "--library",
    "none",
    "--library",
    "code-repair@head",
    "--controls",
    "--db",
    db,
    "--run-id",
    "acceptance-eval",
  ],
  env,
);
await writeFile(path.join(out, "eval.txt"), evalOut);

// pass^1 by arm: the share of attempts that solved their program (reward 1: every test case passes). The table
// above reports Mean@4 of the graded reward (the passing share); the measure is the solved share.
const store = await createStore(db);
const byArm = new Map<string, { attempts: number; solved: number }>();
for (const trajectory of await store.listTrajectories({ runId: "acceptance-eval" })) {
  const arm = trajectory.groupId.split("/")[2] ?? "?";
  const entry = byArm.get(arm) ?? { attempts: 0, solved: 0 };
  entry.attempts++;
  if (trajectory.reward === 1) entry.solved++;
  byArm.set(arm, entry);
}
await store.close();
const none = byArm.get("none");
const passRows = [...byArm].map(([arm, entry]) => {
  const share = entry.solved / entry.attempts;
  const delta = none ? ` (${((share - none.solved / none.attempts) * 100).toFixed(1)} pts vs none)` : "";
  return `${arm.padEnd(48)} ${entry.solved}/${entry.attempts} = ${(share * 100).toFixed(1)}%${delta}`;
});
await writeFile(path.join(out, "pass1.txt"), `${passRows.join("\n")}\n`);
process.stdout.write(`## held-out pass^1 (solved share of attempts)\n\n${passRows.join("\n")}\n\n`);
process.stdout.write(
  `## split\n\n${JSON.stringify(split)}\n\n## learn\n\n${learnOut}\n\n## library\n\n${library}\n\n## eval (${elapsed()})\n\n${evalOut}\n`,
);
process.stdout.write(`total ${elapsed()}; outputs in ${out} (SIMULATED)\n`);
