// Environment benchmark (issue 33): what one environment per attempt costs. Rows:
// - per-attempt start-up (connect + initialize + tools/list + environment_reset + environment_state), p50/p99, of
//   the tickets example MCP server: a fresh process per attempt (stdio, `environment: process`) and a fresh session
//   on one server (Streamable HTTP, `environment: session`);
// - rollouts per second on the tickets domain (and, for comparison, on one shared session without isolation) (SIMULATED policy over the sim's HTTP server with a fixed model
//   latency) at C = 8 and 32, against the model-latency ideal C / (model calls per rollout x latency).
// Run: pnpm --filter @tfgrpo/actor bench:environment (also part of `pnpm bench`).
import { spawn } from "node:child_process";
import os from "node:os";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { renderMarkdownTable } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { createToolResources, openToolset, type ToolsConfig } from "@tfgrpo/tools";
import { createActor } from "../src/create-actor.js";
import { measureRolloutRate, measureStartups, rateColumns } from "../src/testing/environment-bench.js";

const server = fileURLToPath(new URL("../../../examples/tickets/tickets-server.mjs", import.meta.url));
const task = { id: "close-t3", domain: "tickets", question: "Close ticket T-3." };
const modelLatencyMs = 200;

async function startupRow(label: string, tools: ToolsConfig, runs: number) {
  return measureStartups({ label, tools, domain: "tickets", tasks: [task], runs });
}

async function throughputRows(label: string, tools: ToolsConfig) {
  const sim = await createSimServer({ seed: 7, latency: { meanMs: modelLatencyMs } });
  const resources = createToolResources(tools);
  const models = createModels(
    parseModelsConfig({ roles: { actor: { baseUrl: sim.url, model: "sim-actor" } } }),
  );
  const actor = createActor({
    models,
    tools: (domain, names, context) => openToolset({ domain, resources, tools: names, task: context.task }),
    config: {
      domains: { tickets: { tools: ["mcp:tickets"], systemPrompt: "You are an IT helpdesk agent." } },
    },
  });
  const rows: Record<string, unknown>[] = [];
  try {
    for (const concurrency of [8, 32]) {
      const rate = await measureRolloutRate({
        rollout: (request) => actor.rollout(request),
        tasks: [task],
        concurrency,
        total: concurrency * 3,
        modelLatencyMs,
        check: (trajectory, attempt) => {
          if (trajectory.stopReason !== "answered")
            throw new Error(`rollout ${attempt}: ${trajectory.error}`);
        },
      });
      rows.push({
        case: `tickets rollouts, ${label}, C=${concurrency}`,
        rollouts: rate.rollouts,
        ...rateColumns(rate),
      });
    }
  } finally {
    await resources.close();
    await sim.close();
  }
  return rows;
}

const http = spawn(process.execPath, [server, "--http", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const url = JSON.parse(
  await new Promise<string>((resolve) => createInterface({ input: http.stdout! }).once("line", resolve)),
).url as string;
try {
  const process_ = {
    servers: { tickets: { command: process.execPath, args: [server], environment: "process" as const } },
  };
  const startups = [
    await startupRow("start-up per attempt: stdio, a fresh process (environment: process)", process_, 40),
    await startupRow(
      "start-up per attempt: Streamable HTTP, a fresh session (environment: session)",
      {
        servers: { tickets: { url, environment: "session" } },
      },
      40,
    ),
  ];
  const throughput = [
    ...(await throughputRows("a process per attempt", process_)),
    ...(await throughputRows("a session per attempt", {
      servers: { tickets: { url, environment: "session" } },
    })),
    // The same rollouts on one shared session (no isolation: only for the comparison of what isolation costs).
    ...(await throughputRows("one shared session (no isolation)", {
      servers: { tickets: { url, environment: "shared" } },
    })),
  ];
  console.log(
    `Environment benchmark (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs; sim model latency ${modelLatencyMs} ms)`,
  );
  const table = (rows: Record<string, unknown>[]) =>
    renderMarkdownTable(
      Object.keys(rows[0]!),
      rows.map((row) => Object.values(row).map(String)),
    );
  console.log(table(startups));
  console.log();
  console.log(table(throughput));
} finally {
  http.kill();
}
