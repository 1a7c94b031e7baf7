// CLI start-up benchmark: how long `tfgrpo` takes before it does anything, against a bare `node -e 0` on the same
// machine. Each command's declaration is light and its action imports the implementation when it runs
// (src/cli-commands/), so `--help`, `--version` and a quick command load commander, the declarations and what that
// command needs only. Goal (issue 27): `tfgrpo --help` within 4x a bare node start, median of 5.
//
// Measures the compiled build (apps/runner/dist/cli.js: build first), runs interleaved round by round so a load
// change on the machine touches every case alike, and prints the medians and their ratio to `node -e 0`.
//
// Run: pnpm --filter @tfgrpo/runner bench:cli-start [-- --repeats 9] [-- --cli path/to/other/dist/cli.js]
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { renderTable } from "../src/cli-output/render-table.js";
import { repositoryRoot } from "../src/testing/spawn-cli.js";

const argv = process.argv.slice(2);
const repeatsAt = argv.indexOf("--repeats");
const repeats = repeatsAt === -1 ? 5 : Number(argv[repeatsAt + 1]);
if (!Number.isInteger(repeats) || repeats < 1) throw new Error("--repeats must be a positive integer");

// --cli FILE: another build to measure (e.g. an older commit's dist/cli.js), for a before/after comparison.
const cliAt = argv.indexOf("--cli");
const cli =
  cliAt === -1 ? path.join(repositoryRoot, "apps/runner/dist/cli.js") : path.resolve(argv[cliAt + 1]!);
if (!existsSync(cli))
  throw new Error(`no ${cli}: build the runner first (pnpm --filter @tfgrpo/runner build)`);
const sources = path.join(repositoryRoot, "apps/runner/src/cli.ts");
const tsx = pathToFileURL(createRequire(path.join(repositoryRoot, "package.json")).resolve("tsx")).href;

const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-cli-start-"));
const db = path.join(directory, "tfgrpo.db");
const library = path.join(repositoryRoot, "test-data/youtu-agent-libraries/math.json");

function run(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: directory, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr.trim().split("\n")[0]}`);
  return elapsed;
}

try {
  run([cli, "library", "import", library, "--db", db]);
  const cases: { name: string; args: string[] }[] = [
    { name: "node -e 0 (bare start)", args: ["-e", "0"] },
    { name: "tfgrpo --help", args: [cli, "--help"] },
    ...(cliAt === -1 ? [{ name: "tfgrpo --version", args: [cli, "--version"] }] : []),
    { name: "tfgrpo learn --help", args: [cli, "learn", "--help"] },
    { name: "tfgrpo library list --db <file>", args: [cli, "library", "list", "--db", db] },
    ...(cliAt === -1
      ? [
          {
            name: "tfgrpo --help (sources, tsx)",
            args: ["--conditions=source", "--import", tsx, sources, "--help"],
          },
        ]
      : []),
  ];
  for (const entry of cases) run(entry.args); // warm the file system cache
  const times = cases.map(() => [] as number[]);
  for (let round = 0; round < repeats; round++)
    cases.forEach((entry, index) => {
      times[index]!.push(run(entry.args));
    });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const bare = median(times[0]!);
  const rows = cases.map((entry, index) => ({
    name: entry.name,
    median: median(times[index]!),
    min: Math.min(...times[index]!),
    max: Math.max(...times[index]!),
  }));
  process.stdout.write(
    `CLI start-up of ${cli}, median of ${repeats} (compiled build unless said; ${os.cpus().length} CPU, load ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")})\n\n`,
  );
  process.stdout.write(
    `${renderTable(
      [
        { header: "command", value: (row) => row.name },
        { header: "median ms", value: (row) => row.median.toFixed(0), align: "right" },
        { header: "x node -e 0", value: (row) => (row.median / bare).toFixed(2), align: "right" },
        { header: "min ms", value: (row) => row.min.toFixed(0), align: "right" },
        { header: "max ms", value: (row) => row.max.toFixed(0), align: "right" },
      ],
      rows,
    )}\n\n`,
  );
  const help = rows.find((row) => row.name === "tfgrpo --help")!.median / bare;
  process.stdout.write(
    `goal: tfgrpo --help within 4x node -e 0: ${help <= 4 ? "met" : "NOT met"} (${help.toFixed(2)}x)\n`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}
