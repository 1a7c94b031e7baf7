// Soak: N outcomes through the library service with retention on, on a SQLite file and on PostgreSQL, by one of two
// paths: `--via mcp` runs `tfgrpo mcp --http` (a real server process, the CLI through tsx; C MCP clients, the SDK's
// Client over Streamable HTTP) and samples that process's RSS (/proc/PID/status VmRSS); `--via service` (the default,
// much cheaper per outcome) runs the in-process library service over the store with the same retention sweep the
// server starts, C concurrent callers, embeddings from the actor's hashed 256-d test embedder (so the embedding and
// index caches fill), and samples this process's RSS. Each caller loops get_experiences -> report_outcome on distinct
// tasks with a ~1 KB trajectory; 5% of selections are never reported. The live outcome rows and the database size
// are sampled every few seconds.
// Retention (TFGRPO_RETENTION, read by the server's sweep): at most 10,000 live outcomes per domain, the latest 2,000
// always kept, trajectories dropped after ~60 s, report deadline 30 s, expired selections compacted after ~2 min, a
// full pass every 15 s. The sizes are set small so a run of minutes shows where days of traffic would level off.
// Run: pnpm --filter @tfgrpo/serving bench:soak [-- --outcomes 100000 --clients 8 --backend both --plot ../../docs/images/soak-rss.svg]
import { spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHashedEmbed } from "@tfgrpo/actor/testing";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type PostgresStore, startRetentionSweep } from "@tfgrpo/store";
import { realLibraryPath, startPostgresServer } from "@tfgrpo/store/testing";
import { createLibraryService } from "../src/service/in-process-library-service.js";
import type { LibraryService } from "../src/service/library-service.js";
import { runnerCliArgs as cliArgs, repositoryRoot as root } from "../src/testing/runner-cli.js";

const { values: args } = parseArgs({
  options: {
    outcomes: { type: "string", default: "100000" },
    clients: { type: "string", default: "8" },
    backend: { type: "string", default: "both" },
    via: { type: "string", default: "service" },
    "sample-ms": { type: "string", default: "3000" },
    plot: { type: "string" },
    /** Comma-separated JSON files of earlier runs (`--json`): render their tables and plot, run nothing. */
    "from-json": { type: "string" },
    json: { type: "string" },
  },
});
const total = Number(args.outcomes);
const clients = Number(args.clients);
const sampleMs = Number(args["sample-ms"]);
const via = args.via === "mcp" ? "mcp" : "service";

const retention = {
  reportDeadlineMs: 30_000,
  maxOutcomesPerDomain: 10_000,
  keepLatestOutcomes: 2_000,
  outcomeMaxAgeDays: 30,
  trajectoryMaxAgeDays: 60 / 86_400,
  unreportedMaxAgeDays: 120 / 86_400,
  batchSize: 2_000,
  intervalMs: 15_000,
  expireEveryMs: 5_000,
};

interface Sample {
  seconds: number;
  outcomes: number;
  rssMb: number;
  liveOutcomes: number;
  dbMb: number;
}

interface SoakResult {
  backend: string;
  outcomes: number;
  seconds: number;
  perSecond: number;
  samples: Sample[];
  final: Record<string, unknown>;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function soak(backend: "sqlite" | "postgres", db: string): Promise<SoakResult> {
  const setup = await createStore(db);
  await setup.importLibrary("math", {
    text: readFileSync(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  await setup.close();
  let child: ReturnType<typeof spawn> | null = null;
  let url = "";
  let inProcess: { service: LibraryService; stop: () => Promise<void> } | null = null;
  if (via === "mcp") {
    const server = spawn(
      process.execPath,
      [...cliArgs, "mcp", "--domain", "math", "--db", db, "--http", "0"],
      {
        cwd: root,
        env: {
          ...process.env,
          TFGRPO_CONFIG: "",
          TFGRPO_ACTOR_CONFIG: "",
          TFGRPO_DB: "",
          TFGRPO_RETENTION: JSON.stringify(retention),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = server;
    let stderr = "";
    url = await new Promise<string>((resolve, reject) => {
      server.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /on (http:\/\/\S+\/mcp)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      server.once("close", (code) => reject(new Error(`tfgrpo mcp exited (${code}): ${stderr}`)));
    });
  } else {
    // What `tfgrpo mcp` opens (openLibraryService), in this process: the service, its store and the sweep.
    const store = await createStore(db);
    const hashed = createHashedEmbed(256);
    const { intervalMs, expireEveryMs, ...policy } = retention;
    const sweep = startRetentionSweep(store, { policy, intervalMs, expireEveryMs });
    const service = createLibraryService({
      store,
      embed: async (texts) => {
        const vectors = await hashed.embed(texts);
        hashed.calls.length = 0;
        return vectors;
      },
      reportDeadlineMs: retention.reportDeadlineMs,
      // 100,000 distinct tasks of 256-d vectors would hold ~120 MB: the bound keeps 32 MiB.
      cache: { embeddingBytes: 32 * 2 ** 20 },
    });
    inProcess = {
      service,
      stop: async () => {
        await sweep.stop();
        await store.close();
      },
    };
  }
  const observer = await createStore(db);
  const sqlite = backend === "sqlite";
  const live = async () => (await observer.outcomeStats("math")).liveOutcomes;
  const dbMb = async () => {
    if (sqlite) {
      const size = (file: string) => {
        try {
          return statSync(file).size;
        } catch {
          return 0;
        }
      };
      return (size(db) + size(`${db}-wal`)) / 2 ** 20;
    }
    const row = (
      await (observer as PostgresStore).connection.query("SELECT pg_database_size(current_database()) AS b")
    ).rows[0]!;
    return Number(row.b) / 2 ** 20;
  };
  const samples: Sample[] = [];
  let done = 0;
  const start = performance.now();
  const sample = async () => {
    samples.push({
      seconds: (performance.now() - start) / 1000,
      outcomes: done,
      rssMb: child ? rssMb(child.pid!) : process.memoryUsage().rss / 2 ** 20,
      liveOutcomes: await live(),
      dbMb: await dbMb(),
    });
  };
  await sample();
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(sample).catch(() => {});
  }, sampleMs);
  const trajectory = Array.from({ length: 6 }, (_, k) => ({
    role: k % 2 === 0 ? "assistant" : "tool",
    content: `step ${k}: ${"checked the intermediate result against a second method; ".repeat(3)}`,
  }));
  let next = 0;
  /** One caller: an MCP client of the server, or the in-process service. */
  const connect = async (c: number) => {
    if (inProcess) {
      const service = inProcess.service;
      return {
        get: async (request: Record<string, unknown>) =>
          (await service.getExperiences(request as never)).selectionId,
        report: async (request: Record<string, unknown>) => {
          await service.reportOutcome(request as never);
        },
        close: async () => {},
      };
    }
    const client = new Client({ name: `soak-${c}`, version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return {
      get: async (request: Record<string, unknown>) => {
        const { domain: _domain, ...args } = request;
        const got = await client.callTool({ name: "get_experiences", arguments: args });
        if (got.isError) throw new Error(`get_experiences: ${JSON.stringify(got.content)}`);
        return (got.structuredContent as { selectionId: string }).selectionId;
      },
      report: async (request: Record<string, unknown>) => {
        const reported = await client.callTool({ name: "report_outcome", arguments: request });
        if (reported.isError) throw new Error(`report_outcome: ${JSON.stringify(reported.content)}`);
      },
      close: () => client.close(),
    };
  };
  try {
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const caller = await connect(c);
        for (let i = next++; i < total; i = next++) {
          const selectionId = await caller.get({
            domain: "math",
            task: `Task ${i}: how many positive divisors does ${1000 + i} have, and which are perfect squares?`,
            family: `f${i % 7}`,
          });
          if (i % 20 === 19) continue; // never reported
          const reward = (i * 7919) % 10 < 4 ? 1 : 0;
          await caller.report({
            selectionId,
            reward,
            feedback: reward ? "correct" : "missed the square divisors",
            trajectory: [...trajectory, { role: "assistant", content: `answer for task ${i}` }],
          });
          done++;
        }
        await caller.close();
      }),
    );
  } finally {
    clearInterval(timer);
    await sampling;
  }
  const seconds = (performance.now() - start) / 1000;
  await sample();
  // One more full pass by the server's sweep, then the end state.
  await new Promise((resolve) => setTimeout(resolve, retention.intervalMs + 2_000));
  await sample();
  const stats = await observer.outcomeStats("math", { reportDeadlineMs: retention.reportDeadlineMs });
  if (child) {
    const closed = new Promise((resolve) => child!.once("close", resolve));
    child.kill("SIGTERM");
    await closed;
  }
  await inProcess?.stop();
  await observer.close();
  return {
    backend: `${backend} (${via === "mcp" ? "tfgrpo mcp --http" : "in-process service"})`,
    outcomes: done,
    seconds,
    perSecond: done / seconds,
    samples,
    final: {
      served: stats.served,
      reported: stats.reported,
      noReport: stats.noReport,
      awaiting: stats.awaiting,
      compacted: stats.compacted,
      liveOutcomes: stats.liveOutcomes,
    },
  };
}

function table(result: SoakResult): string {
  const rows = [
    `| s | outcomes | server RSS MB | live outcome rows | database MB |`,
    `|---|---|---|---|---|`,
  ];
  const step = Math.max(1, Math.floor(result.samples.length / 12));
  result.samples.forEach((s, index) => {
    if (index % step === 0 || index === result.samples.length - 1)
      rows.push(
        `| ${s.seconds.toFixed(0)} | ${s.outcomes} | ${s.rssMb.toFixed(0)} | ${s.liveOutcomes} | ${s.dbMb.toFixed(1)} |`,
      );
  });
  return rows.join("\n");
}

/** RSS (MB) against outcomes reported, one line per backend. */
function plot(results: SoakResult[]): string {
  const width = 820;
  const height = 300;
  const pad = { left: 50, right: 230, top: 20, bottom: 40 };
  const maxX = Math.max(...results.flatMap((r) => r.samples.map((s) => s.outcomes)), 1);
  const maxY = Math.max(...results.flatMap((r) => r.samples.map((s) => s.rssMb)), 1) * 1.1;
  const x = (v: number) => pad.left + (v / maxX) * (width - pad.left - pad.right);
  const y = (v: number) => height - pad.bottom - (v / maxY) * (height - pad.top - pad.bottom);
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
  const lines = results.map((r, index) => {
    const points = r.samples.map((s) => `${x(s.outcomes).toFixed(1)},${y(s.rssMb).toFixed(1)}`).join(" ");
    const last = r.samples.at(-1)!;
    return `<polyline fill="none" stroke="${colours[index % colours.length]}" stroke-width="2" points="${points}"/>
<text x="${x(last.outcomes) + 6}" y="${y(last.rssMb)}" font-size="12" fill="${colours[index % colours.length]}">${r.backend}</text>`;
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) =>
      `<text x="${x(f * maxX)}" y="${height - pad.bottom + 16}" font-size="11" text-anchor="middle">${Math.round(f * maxX)}</text>
<text x="${pad.left - 6}" y="${y(f * maxY) + 4}" font-size="11" text-anchor="end">${Math.round(f * maxY)}</text>
<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(f * maxY)}" y2="${y(f * maxY)}" stroke="#ddd"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<title>Server RSS over the soak, per backend</title>
<rect width="100%" height="100%" fill="white"/>
${ticks.join("\n")}
${lines.join("\n")}
<text x="${(pad.left + width - pad.right) / 2}" y="${height - 6}" font-size="12" text-anchor="middle">outcomes reported</text>
<text x="14" y="${height / 2}" font-size="12" transform="rotate(-90 14 ${height / 2})" text-anchor="middle">server RSS (MB)</text>
</svg>
`;
}

const results: SoakResult[] = [];
await using temporary = await temporaryDirectory("tfgrpo-soak-");
if (args["from-json"]) {
  for (const file of args["from-json"].split(","))
    results.push(...(JSON.parse(readFileSync(file, "utf8")) as SoakResult[]));
} else {
  if (args.backend === "sqlite" || args.backend === "both") {
    results.push(await soak("sqlite", path.join(temporary.path, "soak.db")));
  }
  if (args.backend === "postgres" || args.backend === "both") {
    await using server = await startPostgresServer();
    results.push(await soak("postgres", await server.createDatabase("soak")));
  }
}
console.log(
  `soak: ${total} outcomes, ${clients} ${via === "mcp" ? "MCP clients over Streamable HTTP to one tfgrpo mcp --http" : "concurrent callers of the in-process library service"} (node ${process.version}); retention ${JSON.stringify(retention)}`,
);
for (const result of results) {
  const afterWarmup = result.samples.filter((s) => s.outcomes >= Math.min(10_000, total / 5));
  const rss = afterWarmup.map((s) => s.rssMb);
  console.log(
    `\n${result.backend}: ${result.outcomes} outcomes in ${result.seconds.toFixed(0)} s = ${result.perSecond.toFixed(0)}/s; RSS after warm-up ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MB; final ${JSON.stringify(result.final)}`,
  );
  console.log(table(result));
}
if (args.plot) writeFileSync(args.plot, plot(results));
if (args.json) writeFileSync(args.json, JSON.stringify(results, null, 2));
