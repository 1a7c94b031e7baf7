// Environment benchmark on τ²-bench retail (issue 33), beside packages/actor/bench/environment.bench.ts (tickets):
// - per-attempt start-up of the retail MCP server (connect + initialize + tools/list + environment_reset +
//   environment_state, i.e. what `openToolset` does before the model is called), p50/p99: a fresh process per attempt
//   (stdio, `tfgrpo env serve tau2-retail --data D` from the built CLI, `environment: process`) and a fresh session
//   on one server (Streamable HTTP, `environment: session`);
// - rollouts per second on the imported test tasks (the SIMULATED agent and user over the sim's HTTP server with a
//   fixed model latency; every conversation calls the real retail tools) at C = 8 and 32, against the model-latency
//   ideal C / (model calls per rollout x latency); the user role's calls count as model calls.
// Run: pnpm --filter tfgrpo bench:tau2-retail-environment (also part of `pnpm bench`). About two minutes here.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createActor } from "@tfgrpo/actor";
import { measureRolloutRate, measureStartups, rateColumns } from "@tfgrpo/actor/testing";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { type Task, taskSchema } from "@tfgrpo/protocol";
import { renderMarkdownTable, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { loadRetailDb, serveRetailMcpHttp } from "@tfgrpo/tau2-retail";
import { createToolResources, openToolset, type ToolsConfig } from "@tfgrpo/tools";
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

async function throughputRows(label: string, tools: ToolsConfig, levels: number[]) {
  const sim = await createSimServer({ seed: 7, latency: { meanMs: modelLatencyMs } });
  const resources = createToolResources(tools);
  const role = { baseUrl: sim.url, model: "sim-actor" };
  const models = createModels(parseModelsConfig({ roles: { actor: role, user: role } }));
  const actor = createActor({
    models,
    tools: (name, names, context) =>
      openToolset({ domain: name, resources, tools: names, task: context.task }),
    config: { domains: settings.actor.domains },
  });
  const rows: Record<string, unknown>[] = [];
  try {
    for (const concurrency of levels) {
      const rate = await measureRolloutRate({
        rollout: (request) => actor.rollout(request),
        tasks,
        concurrency,
        total: Math.max(40, concurrency * 2),
        modelLatencyMs,
        // Infrastructure failures invalidate the row; a conversation that ran out of turns or tokens is an outcome of
        // the (simulated) agent, counted like any other rollout.
        check: (trajectory, attempt) => {
          if (infrastructure.has(trajectory.stopReason))
            throw new Error(`rollout ${attempt}: ${trajectory.stopReason} ${trajectory.error}`);
        },
      });
      process.stderr.write(
        `${label}, C=${concurrency}: ${rate.rollouts} rollouts in ${rate.seconds.toFixed(1)} s\n`,
      );
      rows.push({
        case: `retail rollouts, ${label}, C=${concurrency}`,
        rollouts: rate.rollouts,
        "model calls/rollout": rate.modelCallsPerRollout.toFixed(1),
        "tool calls/rollout": rate.toolCallsPerRollout.toFixed(1),
        "not answered": rate.unanswered,
        ...rateColumns(rate),
      });
    }
  } finally {
    await resources.close();
    await sim.close();
  }
  return rows;
}

await using http = await serveRetailMcpHttp({
  initial: loadRetailDb(path.join(out.path, "db.json")),
  port: 0,
});
// The built CLI, as an installed package runs it; from the sources through tsx (slower to start) when not built.
const builtCli = path.join(repositoryRoot, "apps/runner/dist/cli.js");
const cliArgs = existsSync(builtCli)
  ? [builtCli]
  : [
      "--conditions=source",
      "--import",
      pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
      path.join(repositoryRoot, "apps/runner/src/cli.ts"),
    ];
const stdio: ToolsConfig = {
  servers: {
    [domain]: {
      command: process.execPath,
      args: [...cliArgs, "env", "serve", domain, "--data", out.path],
      environment: "process",
    },
  },
};
const session: ToolsConfig = { servers: { [domain]: { url: http.url, environment: "session" } } };
const load = os.loadavg()[0]!;
const startups = [
  await startupRow(
    `retail start-up per attempt: stdio, a fresh \`tfgrpo env serve\` process${existsSync(builtCli) ? "" : " (from the sources: not built)"} (environment: process)`,
    stdio,
    16,
  ),
  await startupRow(
    "retail start-up per attempt: Streamable HTTP, a fresh session (environment: session)",
    session,
    60,
  ),
];
const throughput = [
  ...(await throughputRows("a session per attempt", session, [8, 32])),
  // A process per attempt at C = 8 only: at 32 the start-ups alone (Node + db.json, 32 at once on 2 cores) dominate.
  ...(await throughputRows("a process per attempt", stdio, [8])),
];
console.log(
  `Retail environment benchmark (load average ${load.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs; sim model latency ${modelLatencyMs} ms; SIMULATED agent and user)`,
);
const table = (rows: Record<string, unknown>[]) =>
  renderMarkdownTable(
    Object.keys(rows[0]!),
    rows.map((row) => Object.values(row).map(String)),
  );
console.log(table(startups));
console.log();
console.log(table(throughput));
