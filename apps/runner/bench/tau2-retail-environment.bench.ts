// Environment benchmark on τ²-bench retail (issues 33 and 42), beside packages/actor/bench/environment.bench.ts:
// - per-attempt start-up of the retail MCP server (connect + initialize + tools/list + environment_reset +
//   environment_state, i.e. what `openToolset` does before the model is called), p50/p99: a fresh process per attempt
//   (stdio, `tfgrpo env serve tau2-retail --data D`, `environment: process`) started then, or taken from the warm
//   pool, and a fresh session on one server (Streamable HTTP, `environment: session`);
// - rollouts per second on the imported test tasks (the SIMULATED agent and user over the sim's HTTP server with a
//   fixed model latency; every conversation calls the real retail tools) at C = 8, 32 and 64, for no environment
//   (the same conversations without tools), a session per attempt and a process per attempt, before (each environment
//   started when its attempt needs it; the process through the TypeScript loader, as a source checkout's import
//   wrote it) and after (the warm pool; the process from the built CLI and, as the import writes it, `reuse: true`:
//   a clean attempt's process is reset for the next), against the model-latency ideal
//   C / (model calls per rollout x latency); the user role's calls count as model calls.
// Run: pnpm --filter tfgrpo bench:tau2-retail-environment [--levels 8,32,64] [--arms none,session,process]
//   [--variants before,after] [--repeat 1] (also part of `pnpm bench`). Each row prints the load average.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createActor } from "@tfgrpo/actor";
import { measureRolloutRate, measureStartups, rateColumns } from "@tfgrpo/actor/testing";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { type Task, taskSchema } from "@tfgrpo/protocol";
import { renderMarkdownTable, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { loadRetailDb, serveRetailMcpHttp } from "@tfgrpo/tau2-retail";
import {
  checkToolset,
  createToolResources,
  openToolset,
  type ToolsConfig,
  withEnvironmentPool,
} from "@tfgrpo/tools";
import { parse } from "yaml";
import { dataImport } from "../src/commands/data.js";
import { repositoryRoot } from "../src/testing/spawn-cli.js";

const domain = "tau2-retail";
const modelLatencyMs = 200;
const infrastructure = new Set(["environment_error", "model_error", "error"]);
const quiet = { stderr: { write: () => true }, stdout: { write: () => true } };

await using out = await temporaryDirectory("tfgrpo-retail-bench-");
await dataImport(
  [path.join(repositoryRoot, "test-data/tau2-bench-retail")],
  { seed: 1, extractBoxed: "auto", answers: true, preset: domain, outDir: out.path },
  quiet,
);
const tasks: Task[] = (await readFile(path.join(out.path, "test.jsonl"), "utf8"))
  .split("\n")
  .filter(Boolean)
  .map((line) => taskSchema.parse(JSON.parse(line)));
const settings = parse(await readFile(path.join(out.path, `${domain}.yaml`), "utf8"));

async function startupRow(label: string, tools: ToolsConfig, runs: number) {
  const row = await measureStartups({ label, tools, domain, tasks, runs });
  process.stderr.write(`${label}: ${runs} start-ups\n`);
  return row;
}

const { values: flags } = parseArgs({
  options: {
    levels: { type: "string", default: "8,32,64" },
    arms: { type: "string", default: "none,session,process" },
    variants: { type: "string", default: "before,after" },
    repeat: { type: "string", default: "1" },
  },
});
const levels = flags.levels!.split(",").map(Number);
const arms = new Set(flags.arms!.split(","));
const variants = flags.variants!.split(",") as ("before" | "after")[];

interface Arm {
  label: string;
  tools: ToolsConfig;
  /** The actor's domains: the imported ones, or without tools for the no-environment arm. */
  domains: Record<string, unknown>;
}

async function throughputRows(arm: Arm, variant: "before" | "after") {
  const sim = await createSimServer({ seed: 7, latency: { meanMs: modelLatencyMs } });
  const role = { baseUrl: sim.url, model: "sim-actor" };
  const models = createModels(parseModelsConfig({ roles: { actor: role, user: role } }));
  const rows: Record<string, unknown>[] = [];
  try {
    for (const concurrency of levels) {
      // A run's resources as the actor runtime makes them: after, with the warm environment pool of its concurrency.
      const resources = createToolResources(
        variant === "after" ? withEnvironmentPool(arm.tools, {}, { concurrency }) : arm.tools,
      );
      const actor = createActor({
        models,
        tools: (name, names, context) =>
          openToolset({ domain: name, resources, tools: names, task: context.task }),
        config: { domains: arm.domains as never },
      });
      let infrastructureFailures = 0;
      const load = os.loadavg()[0]!;
      try {
        // As a run does: the domain's tools are checked (and its pool started) before the first rollout.
        if (arm.label !== "no environment")
          await checkToolset({ domain, resources, tools: [`mcp:${domain}`] });
        const rate = await measureRolloutRate({
          rollout: (request) => actor.rollout(request),
          tasks,
          concurrency,
          total: Math.max(40, concurrency * 2),
          modelLatencyMs,
          // Infrastructure failures are counted (a server that did not start in time); a conversation that ran out
          // of turns or tokens is an outcome of the (simulated) agent, counted like any other rollout.
          check: (trajectory) => {
            if (infrastructure.has(trajectory.stopReason)) infrastructureFailures++;
          },
        });
        const pool = resources.environments.stats(domain);
        process.stderr.write(
          `${arm.label}, ${variant}, C=${concurrency}: ${rate.rollouts} rollouts in ${rate.seconds.toFixed(1)} s (load ${load.toFixed(1)})\n`,
        );
        rows.push({
          case: `${arm.label}, ${variant}`,
          C: concurrency,
          rollouts: rate.rollouts,
          "infra fail": infrastructureFailures,
          "model calls/rollout": rate.modelCallsPerRollout.toFixed(1),
          "tool calls/rollout": rate.toolCallsPerRollout.toFixed(1),
          // Failed rollouts make no model calls and end fast: a row with infrastructure failures has no share.
          ...(infrastructureFailures > 0
            ? {
                "rollouts/s": (rate.rollouts / rate.seconds).toFixed(2),
                "ideal rollouts/s": "-",
                "share of ideal": "-",
              }
            : rateColumns(rate)),
          "pool: handed / waited": pool ? `${pool.handedOut} / ${pool.waited}` : "-",
          load: load.toFixed(1),
        });
      } finally {
        await resources.close();
      }
    }
  } finally {
    await sim.close();
  }
  return rows;
}

await using http = await serveRetailMcpHttp({
  initial: loadRetailDb(path.join(out.path, "db.json")),
  port: 0,
});
// Before: the server command a source checkout's import wrote (the CLI through the tsx loader, every start compiling
// it again). After: the built CLI, as the import now writes it when dist/cli.js is there (and an installed CLI runs).
const builtCli = path.join(repositoryRoot, "apps/runner/dist/cli.js");
if (!existsSync(builtCli)) throw new Error(`${builtCli} is missing: run pnpm build first`);
const sourceCli = [
  "--conditions=source",
  "--import",
  pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
  path.join(repositoryRoot, "apps/runner/src/cli.ts"),
];
const stdioOf = (cli: string[], reuse = false): ToolsConfig => ({
  servers: {
    [domain]: {
      command: process.execPath,
      args: [...cli, "env", "serve", domain, "--data", out.path],
      environment: "process",
      reuse,
    },
  },
});
const session: ToolsConfig = { servers: { [domain]: { url: http.url, environment: "session" } } };
const imported = settings.actor.domains as Record<string, { tools: string[] }>;
const withoutTools = { [domain]: { ...imported[domain], tools: [] } };
const armsOf = (variant: "before" | "after"): Arm[] => [
  ...(arms.has("none") ? [{ label: "no environment", tools: {}, domains: withoutTools }] : []),
  ...(arms.has("session") ? [{ label: "a session per attempt", tools: session, domains: imported }] : []),
  ...(arms.has("process")
    ? [
        {
          label: "a process per attempt",
          // After: as the import writes it now (the built CLI; a clean attempt's process reset for the next).
          tools: variant === "after" ? stdioOf([builtCli], true) : stdioOf(sourceCli),
          domains: imported,
        },
      ]
    : []),
];

const loadAtStart = os.loadavg()[0]!;
const startups = [
  await startupRow(
    "retail start-up per attempt: stdio, a fresh `tfgrpo env serve` process through the tsx loader (environment: process)",
    stdioOf(sourceCli),
    8,
  ),
  await startupRow(
    "retail start-up per attempt: stdio, a fresh `tfgrpo env serve` process from the built CLI (environment: process)",
    stdioOf([builtCli]),
    16,
  ),
  await startupRow(
    "retail start-up per attempt: Streamable HTTP, a fresh session (environment: session)",
    session,
    60,
  ),
];
const throughput: Record<string, unknown>[] = [];
for (let round = 0; round < Number(flags.repeat); round++) {
  for (const variant of variants) {
    for (const arm of armsOf(variant)) {
      // No environment has nothing to start: one variant is enough.
      if (arm.label === "no environment" && variant === "before" && variants.includes("after")) continue;
      throughput.push(...(await throughputRows(arm, variant)));
    }
  }
}
console.log(
  `Retail environment benchmark (load average ${loadAtStart.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs; sim model latency ${modelLatencyMs} ms; SIMULATED agent and user)`,
);
const table = (rows: Record<string, unknown>[]) =>
  renderMarkdownTable(
    Object.keys(rows[0]!),
    rows.map((row) => Object.values(row).map(String)),
  );
console.log(table(startups));
console.log();
console.log(table(throughput));
