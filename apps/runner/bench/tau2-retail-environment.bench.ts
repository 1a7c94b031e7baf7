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
//   a clean attempt's process is reset for the next), against the model-latency ideal: every rollout a chain of its
//   model calls at the latency, list-scheduled in dispatch order on C slots (the user role's calls count as model
//   calls); beside it the share of C / (mean model calls per rollout x latency), which no finite run reaches.
// Run: pnpm --filter tfgrpo bench:tau2-retail-environment [--levels 8,32,64] [--arms none,session,process]
//   [--variants before,after] [--repeat 1] [--placement apart,shared] [--warm-up] (also part of `pnpm bench`). Each
//   row prints the load average. --warm-up: one untimed wave of C rollouts before each timed row. --placement apart
//   (the default): the sim on a thread of its own and the session arm's server a process of its own; shared: both on
//   the runner's event loop.
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
import { builtCli, repositoryRoot, spawnCli, waitForStderr } from "../src/testing/spawn-cli.js";
import { startSimThread } from "./sim-thread.js";

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
    placement: { type: "string", default: "apart" },
    "warm-up": { type: "boolean", default: false },
  },
});
const levels = flags.levels!.split(",").map(Number);
const arms = new Set(flags.arms!.split(","));
const variants = flags.variants!.split(",") as ("before" | "after")[];
/**
 * apart: the sim model server on a thread of its own and a session arm's retail server in a process of its own (a
 * provider and an environment server are not on the runner's event loop in use); shared: both on the runner's loop,
 * as this bench measured before 2026-12-07 (every share then also pays the simulated agent's and user's answers).
 */
type Placement = "apart" | "shared";
const placements = flags.placement!.split(",") as Placement[];
for (const placement of placements)
  if (placement !== "apart" && placement !== "shared")
    throw new Error(`--placement ${placement}: expected apart, shared or both (apart,shared)`);

interface Arm {
  label: string;
  tools: ToolsConfig;
  /** The actor's domains: the imported ones, or without tools for the no-environment arm. */
  domains: Record<string, unknown>;
}

async function throughputRows(arm: Arm, variant: "before" | "after", placement: Placement) {
  const sim =
    placement === "apart"
      ? await startSimThread({ seed: 7, latencyMs: modelLatencyMs })
      : await createSimServer({ seed: 7, latency: { meanMs: modelLatencyMs } });
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
        // --warm-up: one untimed wave of C rollouts first, as a long-lived worker's pool is past its start-ups.
        if (flags["warm-up"])
          await measureRolloutRate({
            rollout: (request) => actor.rollout(request),
            tasks,
            concurrency,
            total: concurrency,
            modelLatencyMs,
            check: () => {},
          });
        const warmed = resources.environments.stats(domain);
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
          `${arm.label}, ${variant}, ${placement}, C=${concurrency}: ${rate.rollouts} rollouts in ${rate.seconds.toFixed(1)} s (load ${load.toFixed(1)})\n`,
        );
        rows.push({
          case: `${arm.label}, ${variant}${flags["warm-up"] ? ", warm" : ""}`,
          placement,
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
                "share of C / mean": "-",
              }
            : rateColumns(rate)),
          "pool: handed / waited": pool
            ? `${pool.handedOut - (warmed?.handedOut ?? 0)} / ${pool.waited - (warmed?.waited ?? 0)}`
            : "-",
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
const sessionAt = (url: string): ToolsConfig => ({
  servers: { [domain]: { url, environment: "session" } },
});
const session = sessionAt(http.url);
// Apart: the same retail server as a user runs it, `tfgrpo env serve tau2-retail --http` from the built CLI.
const apartServer = placements.includes("apart")
  ? spawnCli(["env", "serve", domain, "--data", out.path, "--http", "0"], { built: true })
  : undefined;
const apartUrl = apartServer
  ? (await waitForStderr(apartServer, /Streamable HTTP\) at (\S+)/, "tfgrpo env serve --http"))[1]!
  : undefined;
const imported = settings.actor.domains as Record<string, { tools: string[] }>;
const withoutTools = { [domain]: { ...imported[domain], tools: [] } };
const armsOf = (variant: "before" | "after", placement: Placement): Arm[] => [
  ...(arms.has("none") ? [{ label: "no environment", tools: {}, domains: withoutTools }] : []),
  ...(arms.has("session")
    ? [
        {
          label: "a session per attempt",
          tools: placement === "apart" ? sessionAt(apartUrl!) : session,
          domains: imported,
        },
      ]
    : []),
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
try {
  for (let round = 0; round < Number(flags.repeat); round++) {
    for (const placement of placements) {
      for (const variant of variants) {
        for (const arm of armsOf(variant, placement)) {
          // No environment has nothing to start: one variant is enough.
          if (arm.label === "no environment" && variant === "before" && variants.includes("after")) continue;
          throughput.push(...(await throughputRows(arm, variant, placement)));
        }
      }
    }
  }
} finally {
  apartServer?.child.kill("SIGTERM");
  await apartServer?.exited;
}
console.log(
  `Retail environment benchmark (placement ${placements.join(", ")}: apart = the sim model server on a thread of its own, the session arm's retail server a \`tfgrpo env serve --http\` process; shared = both on the runner's event loop) (load average ${loadAtStart.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs; sim model latency ${modelLatencyMs} ms; SIMULATED agent and user)`,
);
const table = (rows: Record<string, unknown>[]) =>
  renderMarkdownTable(
    Object.keys(rows[0]!),
    rows.map((row) => Object.values(row).map(String)),
  );
console.log(table(startups));
console.log();
console.log(table(throughput));
