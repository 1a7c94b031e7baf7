/**
 * Lesson banks written by authors who never read `packages/sim`, read by the SIMULATED world as a user reads them: each
 * bank's lessons imported as libraries (all correct lessons; the i-th correct lesson of every family, one library
 * per wording form; harmful; correct with harmful on top; keyword stubs; unrelated advice) and evaluated with
 * `tfgrpo eval` against no library on the same tasks and seeds, k = 4, per family; then the correct library with
 * `--controls` (keyword stubs, shuffled situations, another domain). A benchmark, not a test.
 *
 *   pnpm --filter tfgrpo bench:written-banks [--bank test-data/lesson-bank-7] [--domains math,web,retail] [--out DIR]
 *
 * A bank folder holds `math.json`, `web.json` and/or `retail.json`, each
 * `{ families: { <family or trap>: { correct: [], harmful: [], stubs: [] } }, unrelated: [] }`.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { loadRetailDb, serveRetailMcpHttp } from "@tfgrpo/tau2-retail";
import { parse, stringify } from "yaml";
import { z } from "zod";
import { repositoryRoot, runCli } from "../src/testing/spawn-cli.js";

const { values } = parseArgs({
  options: {
    bank: { type: "string", default: "test-data/lesson-bank-7" },
    domains: { type: "string", default: "math,web,retail" },
    seed: { type: "string", default: "11" },
    k: { type: "string", default: "4" },
    concurrency: { type: "string", default: "16" },
    out: { type: "string" },
  },
});
const bankDirectory = path.resolve(repositoryRoot, values.bank!);
const out = path.resolve(
  values.out ?? path.join(os.tmpdir(), `tfgrpo-written-banks-${path.basename(bankDirectory)}`),
);
await mkdir(out, { recursive: true });
const started = Date.now();
const note = (line: string) =>
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${line}\n`);

const bankSchema = z.object({
  families: z.record(
    z.string(),
    z.object({ correct: z.array(z.string()), harmful: z.array(z.string()), stubs: z.array(z.string()) }),
  ),
  unrelated: z.array(z.string()),
});
type Bank = z.infer<typeof bankSchema>;

interface Interval {
  estimate: number;
  low: number;
  high: number;
}
interface Row {
  label: string;
  meanAtK: Interval;
  deltaVsReference: Interval | null;
}
interface Evaluation {
  rows: Row[];
  groups?: { field: string; groups: { value: string; tasks: number; rows: Row[] }[] } | null;
}

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const run = await runCli(args, { env });
  if (run.code !== 0) throw new Error(`tfgrpo ${args[0]} failed (${run.code}):\n${run.stderr.slice(-3000)}`);
  return run.stdout;
}

/** The libraries a bank gives: name -> lesson texts. */
function librariesOf(bank: Bank): [string, string[]][] {
  const families = Object.values(bank.families);
  const forms = Math.min(...families.map((family) => family.correct.length));
  return [
    ["correct", families.flatMap((family) => family.correct)],
    ...Array.from({ length: forms }, (_, i): [string, string[]] => [
      `correct form ${i + 1}`,
      families.map((family) => family.correct[i]!),
    ]),
    ["harmful", families.flatMap((family) => family.harmful)],
    ["correct + harmful", families.flatMap((family) => [...family.correct, ...family.harmful])],
    ["stubs", families.flatMap((family) => family.stubs)],
    ["unrelated", bank.unrelated],
  ];
}

interface DomainSetup {
  domain: string;
  /** family -> in-family | out-of-family, from the tasks. */
  familySplit: Map<string, string>;
  data: string;
  env: NodeJS.ProcessEnv;
  extra: string[];
  close?: () => Promise<void>;
}

async function setUp(domain: string): Promise<DomainSetup> {
  if (domain === "math" || domain === "web") {
    const data = path.join(out, `${domain}-test.jsonl`);
    const size = domain === "math" ? 60 : 42;
    const tasks = createSuite({ domain, seed: Number(values.seed), size, split: "test" });
    await writeSuiteJsonl(data, tasks);
    const familySplit = new Map(
      tasks.map((task) => [String(task.meta?.family), String(task.meta?.familySplit ?? "in-family")]),
    );
    return { domain, familySplit, data, env: {}, extra: ["--group-by", "family"] };
  }
  const imported = path.join(out, "retail-data");
  await cli([
    "data",
    "import",
    path.join(repositoryRoot, "test-data/tau2-bench-retail"),
    "--preset",
    "tau2-retail",
    "--out-dir",
    imported,
  ]);
  const server = await serveRetailMcpHttp({ initial: loadRetailDb(path.join(imported, "db.json")), port: 0 });
  const settings = parse(await readFile(path.join(imported, "tau2-retail.yaml"), "utf8"));
  settings.tools.servers["tau2-retail"] = { url: server.url, environment: "session" };
  const actorConfig = path.join(out, "retail-actor.yaml");
  await writeFile(actorConfig, stringify(settings));
  return {
    domain: "tau2-retail",
    familySplit: new Map(),
    data: path.join(imported, "test.jsonl"),
    env: {
      TFGRPO_ACTOR_CONFIG: actorConfig,
      TFGRPO_CRITIC_CONFIG: path.join(imported, "tau2-retail.critic.yaml"),
    },
    extra: ["--group-by", "none"],
    close: () => server[Symbol.asyncDispose](),
  };
}

const points = (interval: Interval | null | undefined) =>
  interval
    ? `${(100 * interval.estimate).toFixed(1)} [${(100 * interval.low).toFixed(1)}, ${(100 * interval.high).toFixed(1)}]`
    : "-";

function table(
  title: string,
  evaluation: Evaluation,
  names: string[],
  familySplit: Map<string, string>,
): string {
  const lines = [`### ${title}`, "", "| library | Mean@k | Δ vs none (points) |", "|---|---|---|"];
  for (const [index, row] of evaluation.rows.entries())
    lines.push(
      `| ${names[index] ?? row.label} | ${(100 * row.meanAtK.estimate).toFixed(1)} | ${points(row.deltaVsReference)} |`,
    );
  const groups = evaluation.groups?.groups ?? [];
  if (groups.length === 0) return lines.join("\n");
  // Per family: Δ in points; pooled by familySplit (task-weighted, the same as evaluating the split alone).
  const splits = [...new Set(groups.map((group) => familySplit.get(group.value) ?? "-"))].sort();
  lines.push(
    "",
    `| library | ${splits.map((split) => `Δ ${split}`).join(" | ")} | ${groups.map((group) => group.value).join(" | ")} |`,
  );
  lines.push(`|---|${splits.map(() => "---|").join("")}${groups.map(() => "---|").join("")}`);
  for (const [index, row] of evaluation.rows.entries()) {
    if (index === 0) continue;
    const pooled = splits.map((split) => {
      const members = groups.filter((group) => (familySplit.get(group.value) ?? "-") === split);
      const tasks = members.reduce((sum, group) => sum + group.tasks, 0);
      const delta = members.reduce(
        (sum, group) => sum + group.tasks * (group.rows[index]?.deltaVsReference?.estimate ?? 0),
        0,
      );
      return ((100 * delta) / tasks).toFixed(1);
    });
    const perFamily = groups.map((group) =>
      (100 * (group.rows[index]?.deltaVsReference?.estimate ?? 0)).toFixed(0),
    );
    lines.push(`| ${names[index] ?? row.label} | ${pooled.join(" | ")} | ${perFamily.join(" | ")} |`);
  }
  return lines.join("\n");
}

const report: string[] = [`# Written banks, ${path.relative(repositoryRoot, bankDirectory)} (SIMULATED)`];
for (const name of values.domains!.split(",")) {
  const file = path.join(bankDirectory, `${name}.json`);
  const bank = bankSchema.parse(JSON.parse(await readFile(file, "utf8")));
  const setup = await setUp(name);
  try {
    const db = path.join(out, `${name}.db`);
    const libraries = librariesOf(bank);
    // Ids are never reused in a domain: each version's entries take fresh ones.
    let nextId = 0;
    for (const [index, [label, lessons]] of libraries.entries()) {
      const library = path.join(out, `${name}-${index + 1}.json`);
      await writeFile(
        library,
        JSON.stringify(Object.fromEntries(lessons.map((text) => [`G${nextId++}`, text]))),
      );
      await cli([
        "library",
        "import",
        library,
        "--domain",
        setup.domain,
        "--db",
        db,
        ...(index > 0 ? ["--replace"] : []),
      ]);
      note(`${name}: v${index + 1} = ${label} (${lessons.length} lessons)`);
    }
    const common = [
      "--sim",
      "--seed",
      values.seed!,
      "--domain",
      setup.domain,
      "--data",
      setup.data,
      "--k",
      values.k!,
    ];
    const versions = libraries.map((_, index) => `${setup.domain}@v${index + 1}`);
    note(`${name}: eval of none and ${libraries.length} libraries`);
    const evaluation = JSON.parse(
      await cli(
        [
          "eval",
          ...common,
          "--db",
          db,
          "--concurrency",
          values.concurrency!,
          "--json",
          ...setup.extra,
          ...["none", ...versions].flatMap((library) => ["--library", library]),
        ],
        setup.env,
      ),
    ) as Evaluation;
    report.push(
      table(
        `${name}: the bank's libraries`,
        evaluation,
        ["none", ...libraries.map(([label]) => label)],
        setup.familySplit,
      ),
    );
    note(`${name}: eval of the correct library with controls`);
    const controlled = JSON.parse(
      await cli(
        [
          "eval",
          ...common,
          "--db",
          db,
          "--concurrency",
          values.concurrency!,
          "--json",
          "--group-by",
          "none",
          "--controls",
          "--library",
          "none",
          "--library",
          versions[0]!,
        ],
        setup.env,
      ),
    ) as Evaluation;
    report.push(table(`${name}: the correct library and its controls`, controlled, [], setup.familySplit));
    await writeFile(path.join(out, `${name}.json`), JSON.stringify({ evaluation, controlled }, null, 2));
  } finally {
    await setup.close?.();
  }
  process.stdout.write(`${report.at(-2)}\n\n${report.at(-1)}\n\n`);
}
await writeFile(path.join(out, "report.md"), `${report.join("\n\n")}\n`);
note(`done; report in ${path.join(out, "report.md")}`);
