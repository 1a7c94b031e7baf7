import { readdirSync } from "node:fs";
import { TfgrpoError } from "@tfgrpo/protocol";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { registerAblateCommand } from "../cli-commands/ablate.js";
import { registerDataCommand } from "../cli-commands/data.js";
import { registerDbCommand } from "../cli-commands/db.js";
import { registerDemoCommand } from "../cli-commands/demo.js";
import { registerDoctorCommand } from "../cli-commands/doctor.js";
import { registerEnvCommand } from "../cli-commands/env.js";
import { registerEvalCommand } from "../cli-commands/eval.js";
import { registerLearnCommand } from "../cli-commands/learn.js";
import { registerLibraryCommand } from "../cli-commands/library.js";
import { registerLibraryMergeCommand } from "../cli-commands/library-merge.js";
import { registerMcpCommand } from "../cli-commands/mcp.js";
import { registerModelsCommand } from "../cli-commands/models.js";
import { registerOnlineCommand } from "../cli-commands/online.js";
import { registerReportCommand } from "../cli-commands/report.js";
import { registerRewardCommand } from "../cli-commands/reward.js";
import { registerServeCommand } from "../cli-commands/serve.js";
import { registerSimCommand } from "../cli-commands/sim.js";
import { registerSolveCommand } from "../cli-commands/solve.js";
import { registerStudioCommand } from "../cli-commands/studio.js";
import { registerToolCommand } from "../cli-commands/tool.js";
import { registerTraceCommand } from "../cli-commands/trace.js";
import { withParentOptions } from "../online/online-controls.js";
import { declaredOptions, findCommand, parsedOptions } from "../testing/declared-options.js";
import { ablateCommandOptionsSchema } from "./ablate-command-options.js";
import { dataImportCommandOptionsSchema } from "./data-import-command-options.js";
import { dbCopyCommandOptionsSchema, dbPruneCommandOptionsSchema } from "./db-command-options.js";
import { demoCommandOptionsSchema } from "./demo-command-options.js";
import { doctorCommandOptionsSchema } from "./doctor-command-options.js";
import { envServeCommandOptionsSchema } from "./env-serve-command-options.js";
import { evalCommandOptionsSchema } from "./eval-command-options.js";
import { learnCommandOptionsSchema } from "./learn-command-options.js";
import {
  libraryDomainCommandOptionsSchema,
  libraryExportCommandOptionsSchema,
  libraryImportCommandOptionsSchema,
  libraryListCommandOptionsSchema,
  libraryShowCommandOptionsSchema,
} from "./library-command-options.js";
import { libraryMergeCommandOptionsSchema } from "./library-merge-command-options.js";
import { mcpCommandOptionsSchema } from "./mcp-command-options.js";
import { modelsCheckCommandOptionsSchema } from "./models-check-command-options.js";
import {
  onlineClientsDeclaredSchema,
  onlineCommandOptionsSchema,
  onlineControlDeclaredSchema,
} from "./online-command-options.js";
import { parseCommandOptions } from "./parse-command-options.js";
import { reportCommandOptionsSchema } from "./report-command-options.js";
import { rewardCommandOptionsSchema } from "./reward-command-options.js";
import { serveCommandOptionsSchema } from "./serve-command-options.js";
import {
  simCorpusCommandOptionsSchema,
  simDatasetCommandOptionsSchema,
  simServeCommandOptionsSchema,
} from "./sim-command-options.js";
import { solveCommandOptionsSchema } from "./solve-command-options.js";
import { studioCommandOptionsSchema } from "./studio-command-options.js";
import { toolRunCommandOptionsSchema } from "./tool-run-command-options.js";
import { traceCommandOptionsSchema } from "./trace-command-options.js";

interface CommandCase {
  path: string[];
  register: (program: Command) => void;
  schema: z.ZodObject<z.ZodRawShape>;
  /** The fewest arguments the command parses with (its required options and arguments): defaults alone. */
  least: string[];
  /** Every option given, negations and choices included. */
  full: string[];
  /** Some of what the full parse must hand the action. */
  expected: Record<string, unknown>;
  /** What the action reads (default: the command's own options). */
  read?: (command: Command) => Record<string, unknown>;
}

/** The online subcommands read the parent's --domain, --db and --json too (commander may give those to it). */
const readWithParent = (command: Command) => withParentOptions(command.opts(), command);

/** Every command that takes options, its declaration (cli-commands/) and its schema (commands/*-command-options.ts). */
const cases: CommandCase[] = [
  {
    path: ["learn"],
    register: registerLearnCommand,
    schema: learnCommandOptionsSchema,
    least: [],
    full: [
      "--domain=math",
      "--train=t.jsonl",
      "--val=v.jsonl",
      "--epochs=2",
      "--batch-size=4",
      "--no-ground-truth",
      "--no-exposure",
      "--no-trace",
      "--no-baseline",
      "--on-conflict=stop",
      "--max-infra-failure-rate=0.3",
      "--mode=direct",
      "--precheck=2",
      "--gate=paper",
      "--sim",
      "--dry-run",
    ],
    expected: { epochs: 2, batchSize: 4, groundTruth: false, exposure: false, dryRun: true, gate: "paper" },
  },
  {
    path: ["eval"],
    register: registerEvalCommand,
    schema: evalCommandOptionsSchema,
    least: ["--domain=math", "--data=t.jsonl"],
    full: [
      "--domain=math",
      "--data=t.jsonl",
      "--library=none",
      "--library=math@head",
      "--k=3",
      "--concurrency=2",
      "--seed=0",
      "--temperature=0",
      "--mode=direct",
      "--controls",
      "--json",
      "--no-trace",
      "--dry-run",
      "--group-by=none",
    ],
    expected: { library: ["none", "math@head"], k: 3, seed: 0, mode: "direct", trace: false, dryRun: true },
  },
  {
    path: ["online"],
    register: registerOnlineCommand,
    schema: onlineCommandOptionsSchema,
    least: [],
    full: [
      "--domain=math",
      "--tasks=t.jsonl",
      "--reflect-every=4",
      "--drop-below=0.5",
      "--canary-share=0.2",
      "--budget-usd=1.5",
      "--no-tools",
      "--learner",
      "--lease-ttl-ms=100",
      "--settle-ms=0",
      "--json",
      "--sim",
    ],
    expected: { reflectEvery: 4, dropBelow: 0.5, budgetUsd: 1.5, tools: false, settleMs: 0, seed: 1 },
  },
  ...(["status", "pause", "resume"] as const).map(
    (name): CommandCase => ({
      path: ["online", name],
      register: registerOnlineCommand,
      schema: onlineControlDeclaredSchema,
      least: [],
      full: ["--domain=math", "--db=x.db", "--json"],
      expected: { domain: "math", db: "x.db", json: true },
      read: readWithParent,
    }),
  ),
  {
    path: ["online", "clients"],
    register: registerOnlineCommand,
    schema: onlineClientsDeclaredSchema,
    least: [],
    full: ["--domain=math", "--exclude=bot", "--reason=spam", "--json"],
    expected: { domain: "math", exclude: "bot", reason: "spam", json: true },
    read: readWithParent,
  },
  {
    path: ["serve"],
    register: registerServeCommand,
    schema: serveCommandOptionsSchema,
    least: ["--role=actor"],
    full: [
      "--role=library",
      "--concurrency=3",
      "--module",
      "a.js",
      "b.js",
      "--rate-limit=0",
      "--rate-burst=5",
      "--client-tokens=tokens.txt",
    ],
    expected: { concurrency: 3, module: ["a.js", "b.js"], rateLimit: 0, rateBurst: 5 },
  },
  {
    path: ["mcp"],
    register: registerMcpCommand,
    schema: mcpCommandOptionsSchema,
    least: ["--domain=math"],
    full: ["--domain=math", "--http=0", "--max-sessions=2", "--session-idle=1.5", "--rate-limit=2.5"],
    expected: { http: 0, maxSessions: 2, sessionIdle: 1.5, rateLimit: 2.5 },
  },
  {
    path: ["data", "import"],
    register: registerDataCommand,
    schema: dataImportCommandOptionsSchema,
    least: ["a.jsonl"],
    full: [
      "a.jsonl",
      "--domain=math",
      "--val-share=0.1",
      "--split-by=random",
      "--extract-boxed=never",
      "--no-answers",
      "--out-dir=out",
    ],
    expected: { valShare: 0.1, splitBy: "random", extractBoxed: "never", answers: false, seed: 1 },
  },
  {
    path: ["db", "copy"],
    register: registerDbCommand,
    schema: dbCopyCommandOptionsSchema,
    least: ["--from=a.db", "--to=b.db"],
    full: ["--from=a.db", "--to=b.db", "--domain", "math", "web", "--libraries-only"],
    expected: { domain: ["math", "web"], librariesOnly: true },
  },
  {
    path: ["db", "prune"],
    register: registerDbCommand,
    schema: dbPruneCommandOptionsSchema,
    least: ["--db=a.db"],
    full: ["--db=a.db", "--dry-run", "--report-deadline-ms=1000", "--keep-latest-outcomes=10"],
    expected: { dryRun: true, reportDeadlineMs: 1000, keepLatestOutcomes: 10 },
  },
  {
    path: ["models", "check"],
    register: registerModelsCommand,
    schema: modelsCheckCommandOptionsSchema,
    least: ["--config=models.yaml"],
    full: ["--config=models.yaml", "--timeout-ms=500", "--mode=direct", "--json"],
    expected: { timeoutMs: 500, mode: "direct", json: true },
  },
  {
    path: ["env", "serve"],
    register: registerEnvCommand,
    schema: envServeCommandOptionsSchema,
    least: ["tau2-retail", "--data=d"],
    full: ["tau2-retail", "--data=d", "--http=0", "--host=127.0.0.1", "--max-sessions=3"],
    expected: { http: 0, maxSessions: 3 },
  },
  {
    path: ["demo"],
    register: registerDemoCommand,
    schema: demoCommandOptionsSchema,
    least: [],
    full: ["--domain=web", "--train=2", "--val=3", "--test=4", "--k=1", "--seed=0"],
    expected: { domain: "web", train: 2, val: 3, test: 4, k: 1, seed: 0, dir: ".tfgrpo/demo" },
  },
  {
    path: ["ablate"],
    register: registerAblateCommand,
    schema: ablateCommandOptionsSchema,
    least: [],
    full: [
      "--sim",
      "--train-size=2",
      "--mode=direct",
      "--sim-fall=0.4",
      "--no-controls",
      "--direct-lessons=3",
    ],
    expected: { sim: true, trainSize: 2, mode: "direct", simFall: 0.4, controls: false, domain: "math" },
  },
  {
    path: ["solve"],
    register: registerSolveCommand,
    schema: solveCommandOptionsSchema,
    least: ["what", "is", "2+2"],
    full: [
      "2+2",
      "--library=math@head",
      "--sim",
      "--sim-seed=3",
      "--mode=direct",
      "--seed=-1",
      "--show-prompt",
    ],
    expected: { library: "math@head", simSeed: 3, mode: "direct", seed: -1, showPrompt: true },
  },
  {
    path: ["studio"],
    register: registerStudioCommand,
    schema: studioCommandOptionsSchema,
    least: [],
    full: ["--port=0", "--host=0.0.0.0", "--db=x.db"],
    expected: { port: 0, host: "0.0.0.0" },
  },
  {
    path: ["trace"],
    register: registerTraceCommand,
    schema: traceCommandOptionsSchema,
    least: ["run-1"],
    full: ["run-1", "--step=2", "--rollout=g/1", "--file=t.jsonl"],
    expected: { step: 2, rollout: "g/1" },
  },
  {
    path: ["doctor"],
    register: registerDoctorCommand,
    schema: doctorCommandOptionsSchema,
    least: [],
    full: ["--json", "--db=postgres://localhost/x"],
    expected: { json: true },
  },
  {
    path: ["library", "merge"],
    register: registerLibraryMergeCommand,
    schema: libraryMergeCommandOptionsSchema,
    least: ["--from=web", "--into=math"],
    full: ["--from=web", "--into=math", "--no-commit", "--sim", "--run-id=r"],
    expected: { commit: false, sim: true, runId: "r" },
  },
  {
    path: ["sim", "serve"],
    register: registerSimCommand,
    schema: simServeCommandOptionsSchema,
    least: [],
    full: ["--port=8080", "--seed=3", "--world=4", "--latency=5", "--quiet", "--faults=rate=0.1"],
    expected: { port: "8080", seed: "3", quiet: true, host: "127.0.0.1" },
  },
  {
    path: ["sim", "dataset"],
    register: registerSimCommand,
    schema: simDatasetCommandOptionsSchema,
    least: ["--domain=math", "--split=train", "--size=3", "--out=t.jsonl"],
    full: ["--domain=math", "--split=val", "--size=3", "--out=t.jsonl", "--seed=2"],
    expected: { split: "val", size: "3", seed: "2" },
  },
  {
    path: ["sim", "corpus"],
    register: registerSimCommand,
    schema: simCorpusCommandOptionsSchema,
    least: ["--out=c.jsonl"],
    full: ["--out=c", "--folder", "--base-url=http://127.0.0.1:1/corpus"],
    expected: { folder: true, seed: 1 },
  },
  {
    path: ["tool", "run"],
    register: registerToolCommand,
    schema: toolRunCommandOptionsSchema,
    least: ["code_interpreter", "--input={}"],
    full: [
      "web_fetch",
      "--input={}",
      "--allow-host=a:1",
      "--allow-host=b:2",
      "--timeout-ms=50",
      "--model-view",
    ],
    expected: { allowHost: ["a:1", "b:2"], timeoutMs: 50, modelView: true },
  },
  {
    path: ["reward"],
    register: registerRewardCommand,
    schema: rewardCommandOptionsSchema,
    least: ["math"],
    full: ["module", "-i", "cases.jsonl", "-m", "reward.js", "--partial-credit"],
    expected: { input: "cases.jsonl", module: "reward.js", partialCredit: true },
  },
  {
    path: ["report"],
    register: registerReportCommand,
    schema: reportCommandOptionsSchema,
    least: ["run-1"],
    full: ["run-1", "--db=x.db", "--out=r.html"],
    expected: { db: "x.db", out: "r.html" },
  },
  {
    path: ["library", "list"],
    register: registerLibraryCommand,
    schema: libraryListCommandOptionsSchema,
    least: [],
    full: ["--db=x.db", "--domain=math"],
    expected: { db: "x.db", domain: "math" },
  },
  {
    path: ["library", "show"],
    register: registerLibraryCommand,
    schema: libraryShowCommandOptionsSchema,
    least: ["--domain=math"],
    full: ["--domain=math", "--version=3", "--entry=G3", "--all", "--wide", "--json", "--costs"],
    expected: { version: "3", entry: "G3", all: true, costs: true },
  },
  {
    path: ["library", "diff"],
    register: registerLibraryCommand,
    schema: libraryDomainCommandOptionsSchema,
    least: ["1", "2", "--domain=math"],
    full: ["none", "head", "--domain=math", "--db=x.db"],
    expected: { domain: "math", db: "x.db" },
  },
  {
    path: ["library", "rollback"],
    register: registerLibraryCommand,
    schema: libraryDomainCommandOptionsSchema,
    least: ["1", "--domain=math"],
    full: ["1", "--domain=math", "--db=x.db"],
    expected: { domain: "math" },
  },
  {
    path: ["library", "export"],
    register: registerLibraryCommand,
    schema: libraryExportCommandOptionsSchema,
    least: ["--domain=math"],
    full: ["--domain=math", "--format=markdown", "--version=2", "--out=l.md"],
    expected: { format: "markdown", version: "2" },
  },
  {
    path: ["library", "import"],
    register: registerLibraryCommand,
    schema: libraryImportCommandOptionsSchema,
    least: ["l.json"],
    full: ["l.md", "--format=plain", "--status=candidate", "--replace", "--domain=math"],
    expected: { format: "plain", status: "candidate", replace: true },
  },
];

/** Every command and subcommand that declares options, by path, from every register* of cli-commands/. */
async function commandsWithOptions(): Promise<string[]> {
  const program = new Command();
  const directory = new URL("../cli-commands/", import.meta.url);
  // By name without ".ts": library before library-merge, which adds to it (as in cli.ts).
  const names = readdirSync(directory)
    .filter((name) => name.endsWith(".ts") && !name.includes(".test."))
    .map((name) => name.slice(0, -3))
    .sort();
  for (const name of names) {
    const module: Record<string, unknown> = await import(new URL(`${name}.ts`, directory).href);
    for (const [key, value] of Object.entries(module))
      if (key.startsWith("register") && typeof value === "function") value(program);
  }
  const paths: string[] = [];
  const visit = (command: Command, path: string[]) => {
    for (const sub of command.commands) {
      const subPath = [...path, sub.name()];
      if (sub.options.length > 0) paths.push(subPath.join(" "));
      visit(sub, subPath);
    }
  };
  visit(program, []);
  return paths.sort();
}

it("every command that takes options has its schema checked here", async () => {
  expect(await commandsWithOptions()).toEqual(cases.map((entry) => entry.path.join(" ")).sort());
});

describe("each command's options: one schema, the declaration checked against it", () => {
  for (const { path, register, schema, least, full, expected, read } of cases) {
    const name = path.join(" ");
    describe(name, () => {
      it("declares exactly the schema's keys", async () => {
        const program = new Command();
        register(program);
        const { declared, schema: keys } = declaredOptions(findCommand(program, path), schema);
        expect(declared).toEqual(keys);
      });

      it("what commander parses passes the schema: defaults, numbers, negations and choices alike", async () => {
        expect(schema.safeParse(await parsedOptions(register, path, least, read)).error).toBeUndefined();
        const parsed = schema.safeParse(await parsedOptions(register, path, full, read));
        expect(parsed.error).toBeUndefined();
        expect(parsed.data).toMatchObject(expected);
      });

      it("refuses an option the declaration does not have", () => {
        expect(schema.safeParse({ notAnOption: 1 }).success).toBe(false);
      });
    });
  }
});

describe("parseCommandOptions", () => {
  it("refuses ill-typed options with one invalid_input naming the command and each option as typed", () => {
    let error: unknown;
    try {
      parseCommandOptions("env serve", envServeCommandOptionsSchema, { data: "d", maxSessions: Number.NaN });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TfgrpoError);
    expect((error as TfgrpoError).code).toBe("invalid_input");
    expect((error as TfgrpoError).message).toMatch(/^env serve: --max-sessions: /);
  });

  it("returns the typed options when they pass", () => {
    expect(parseCommandOptions("env serve", envServeCommandOptionsSchema, { data: "d", http: 0 })).toEqual({
      data: "d",
      http: 0,
    });
  });
});
