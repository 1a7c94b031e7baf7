import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { openCassette } from "../cassette/open-cassette.js";
import { resolveClientGate } from "../cli-options/client-gate-options.js";
import { loadActorSettings } from "../roles/actor.js";
import { runCli } from "../testing/spawn-cli.js";
import { readTraceFile } from "../tracing/read-trace-file.js";
import { dataImport } from "./data.js";
import { evaluate } from "./eval.js";
import { learn } from "./learn.js";
import { libraryImport } from "./library.js";
import { libraryMerge } from "./library-merge.js";
import { online } from "./online.js";
import { rewardCommand } from "./reward.js";

// Every command that opens a user's file refuses a directory or a missing file in one line naming the path (issue
// 35: `learn --train DIR` used to end in "unexpected error: EISDIR"). A file it may not read gets the same line
// (`read-user-file.test.ts`: root reads anything, so it is not provoked here). The commands are called in process,
// as the CLI's actions call them; one case goes through the CLI to show the line a user sees.

interface Context {
  bad: string;
  tasks: string;
  db: string;
  dir: string;
}

const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };
const learnDefaults = {
  epochs: 1,
  groupSize: 2,
  concurrency: 1,
  groundTruth: true,
  seed: 1,
  valK: 1,
  precheck: 0,
  mode: "direct" as const,
  baseline: false,
  localRoles: "actor,critic,curator",
  temperature: 0.7,
  evalTemperature: 0.3,
};

const cases: Array<{ name: string; run: (c: Context) => Promise<unknown>; line: (c: Context) => string }> = [
  {
    name: "learn --train (dataset)",
    run: (c) =>
      learn({ ...learnDefaults, domain: "math", train: c.bad, val: c.tasks, db: c.db, sim: true }, quiet),
    line: (c) => `--train ${c.bad}: cannot read dataset`,
  },
  {
    name: "learn --val (dataset)",
    run: (c) =>
      learn({ ...learnDefaults, domain: "math", train: c.tasks, val: c.bad, db: c.db, sim: true }, quiet),
    line: (c) => `--val ${c.bad}: cannot read dataset`,
  },
  {
    name: "learn --config (models config)",
    run: (c) =>
      learn(
        { ...learnDefaults, domain: "math", train: c.tasks, val: c.tasks, config: c.bad, db: c.db },
        quiet,
      ),
    line: (c) => `--config ${c.bad}: cannot read models config`,
  },
  {
    name: "eval --data (dataset)",
    run: (c) =>
      evaluate(
        {
          domain: "math",
          library: ["none"],
          data: c.bad,
          k: 1,
          concurrency: 1,
          seed: 1,
          temperature: 0,
          db: c.db,
          mode: "direct",
          localRoles: "actor,critic",
          sim: true,
        } as Parameters<typeof evaluate>[0],
        quiet,
      ),
    line: (c) => `--data ${c.bad}: cannot read dataset`,
  },
  {
    name: "data import (source records)",
    run: (c) =>
      dataImport(
        [c.bad],
        { domain: "math", out: path.join(c.dir, "out.jsonl") } as Parameters<typeof dataImport>[1],
        quiet,
      ),
    line: (c) => `${c.bad}: cannot read source records`,
  },
  {
    name: "library import (library file)",
    run: (c) => libraryImport(c.bad, { domain: "math", format: "auto", status: "active", db: c.db }),
    line: (c) => `${c.bad}: cannot read library file`,
  },
  {
    name: "library merge --from (library file)",
    run: (c) => libraryMerge({ from: `${c.bad}.json`, into: "math", db: c.db, sim: true }),
    line: (c) => `--from ${c.bad}.json: cannot read library file`,
  },
  {
    name: "reward --input (reward cases)",
    run: (c) => rewardCommand("exact", { input: c.bad, partialCredit: false }),
    line: (c) => `--input ${c.bad}: cannot read reward cases`,
  },
  {
    name: "reward --module (reward function)",
    run: (c) => rewardCommand("module", { input: c.tasks, module: `${c.bad}.mjs`, partialCredit: false }),
    line: (c) => `reward module ${path.relative(process.cwd(), `${c.bad}.mjs`)}: `,
  },
  {
    name: "TFGRPO_ACTOR_CONFIG (a role's settings)",
    run: (c) => loadActorSettings(c.bad),
    line: (c) => `${c.bad}: cannot read actor settings`,
  },
  {
    name: "online --online (online settings)",
    run: (c) =>
      online({ domain: "math", tasks: c.tasks, online: c.bad, db: c.db } as Parameters<typeof online>[0], {
        stdout: () => {},
        stderr: () => {},
      }),
    line: (c) => `--online ${c.bad}: cannot read online settings`,
  },
  {
    name: "--client-tokens (client tokens)",
    run: async (c) =>
      resolveClientGate({ clientTokens: c.bad } as Parameters<typeof resolveClientGate>[0], {}),
    line: (c) => `--client-tokens ${c.bad}: cannot read client tokens`,
  },
  {
    name: "trace (trace file)",
    run: (c) => readTraceFile(c.bad),
    line: (c) => `${c.bad}: `,
  },
];

const reasons = { directory: "it is a directory, not a file", missing: "no such file" } as const;

async function context(kind: keyof typeof reasons, dir: string): Promise<Context> {
  const tasks = path.join(dir, "tasks.jsonl");
  await writeFile(tasks, `${JSON.stringify({ question: "1 + 1?", answer: "2" })}\n`);
  const bad = path.join(dir, "given");
  // Some cases name the path with an extension: those are directories too.
  if (kind === "directory") for (const suffix of ["", ".json", ".mjs"]) await mkdir(`${bad}${suffix}`);
  return { bad, tasks, db: path.join(dir, "tfgrpo.db"), dir };
}

describe("a user's file that is a directory, or missing, is refused in one line naming it", () => {
  for (const kind of ["directory", "missing"] as const) {
    for (const test of cases) {
      // A missing trace file has its own message ("was the run traced?").
      if (kind === "missing" && test.name.startsWith("trace")) continue;
      it(`${test.name}: ${kind}`, async () => {
        await using dir = await temporaryDirectory("tfgrpo-user-files-");
        const c = await context(kind, dir.path);
        const error = (await test.run(c).then(
          () => new Error("accepted"),
          (e: unknown) => e,
        )) as Error;
        expect(error.message.split("\n")).toHaveLength(1);
        expect(error.message).toContain(test.line(c));
        expect(error.message.endsWith(reasons[kind])).toBe(true);
      });
    }
  }

  it("a cassette whose manifest is a directory", async () => {
    await using dir = await temporaryDirectory("tfgrpo-user-files-");
    await mkdir(path.join(dir.path, "manifest.json"));
    expect(() => openCassette({ command: "learn", replay: dir.path })).toThrow(
      `--replay ${path.join(dir.path, "manifest.json")}: cannot read cassette manifest: ${reasons.directory}`,
    );
  });

  it("learn --train DIR through the CLI: one line naming the directory, no EISDIR", async () => {
    await using dir = await temporaryDirectory("tfgrpo-user-files-");
    const c = await context("directory", dir.path);
    const run = await runCli([
      "learn",
      "--sim",
      "--domain",
      "math",
      "--train",
      c.bad,
      "--val",
      c.tasks,
      "--db",
      c.db,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toBe(`tfgrpo: --train ${c.bad}: cannot read dataset: ${reasons.directory}`);
  }, 60_000);
});
