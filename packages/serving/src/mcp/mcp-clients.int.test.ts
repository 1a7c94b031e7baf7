// Untrusted clients end to end: `tfgrpo mcp --http` with client tokens and a rate limit as a real process, a flooding
// client in another process, a well-behaved client whose latency is measured meanwhile, and the operator's
// `tfgrpo online clients` listing the clients and excluding one from learning.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { runnerCliArgs as cliArgs, repositoryRoot as root } from "../testing/runner-cli.js";

// No models config (similarity off), no inherited workspace settings or tokens.
const env = {
  ...process.env,
  TFGRPO_CONFIG: "",
  TFGRPO_ACTOR_CONFIG: "",
  TFGRPO_DB: "",
  TFGRPO_CLIENT_TOKENS: "",
} as Record<string, string>;

/** `tfgrpo <args>` as its own process, its output collected. */
function spawnCli(args: readonly string[]) {
  const child: ChildProcess = spawn(process.execPath, [...cliArgs, ...args], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  return { child, output, exited };
}

async function runCli(args: readonly string[]) {
  const spawned = spawnCli(args);
  const code = await spawned.exited;
  return { code, ...spawned.output };
}

async function waitForUrl(spawned: ReturnType<typeof spawnCli>): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = /on (http:\/\/\S+\/mcp)/.exec(spawned.output.stderr);
    if (match) return match[1]!;
    if (spawned.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`tfgrpo mcp did not start:\n${spawned.output.stderr}`);
    }
    await sleep(20);
  }
}
const tokens = { alice: "alice-token-0001", bob: "bob-token-000002", mallory: "mallory-token-03" };
const flooder = path.join(root, "packages/serving/test/fixtures/mcp-flood.mjs");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function connect(url: string, token: string) {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function serveAndReport(client: Client, results: boolean[]) {
  for (const [index, success] of results.entries()) {
    const got = await client.callTool({
      name: "get_experiences",
      arguments: { task: `task ${index}: 2+${index}?` },
    });
    const { selectionId } = got.structuredContent as { selectionId: string };
    const reported = await client.callTool({ name: "report_outcome", arguments: { selectionId, success } });
    expect(reported.isError ?? false).toBe(false);
  }
}

/** `count` get_experiences calls, one every `everyMs` (under the client's own limit), each call's latency in ms. */
async function pacedLatencies(client: Client, count: number, everyMs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const reply = await client.callTool({ name: "get_experiences", arguments: { task: `paced ${index}` } });
    latencies.push(performance.now() - started);
    expect(reply.isError ?? false).toBe(false);
    await sleep(Math.max(0, everyMs - (performance.now() - started)));
  }
  return latencies;
}

it("a flood past the rate limit gets a clear 429 and does not slow the other clients; the operator lists and excludes a client", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-clients-");
  const db = path.join(temporary.path, "workspace.db");
  const store = await createStore(db);
  await store.applyOperations(
    "math",
    [
      { op: "add", text: "Check units before answering.", reason: "r", status: "active" },
      { op: "add", text: "Enumerate small cases with code first.", reason: "r", status: "active" },
      { op: "add", text: "Substitute the answer back into the equation.", reason: "r", status: "candidate" },
    ],
    { parent: null, state: "committed" },
  );
  const tokenFile = path.join(temporary.path, "clients.txt");
  writeFileSync(
    tokenFile,
    `# name:token\n${Object.entries(tokens)
      .map(([name, token]) => `${name}:${token}`)
      .join("\n")}\n`,
  );
  const server = spawnCli([
    ...["mcp", "--domain", "math", "--db", db, "--http", "0"],
    ...["--client-tokens", tokenFile, "--rate-limit", "20", "--rate-burst", "20"],
  ]);
  try {
    const url = await waitForUrl(server);
    expect(server.output.stderr).toContain("3 client tokens, rate limit 20/s burst 20 per client");
    const unknown = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer not-a-known-token" },
      body: "{}",
    });
    expect(unknown.status).toBe(401);

    const alice = await connect(url, tokens.alice);
    const bob = await connect(url, tokens.bob);
    const mallory = await connect(url, tokens.mallory);
    await serveAndReport(alice, [true, true, false, true, false]);
    await serveAndReport(bob, [false, true]);
    await serveAndReport(mallory, [true, true, true]);

    const before = await pacedLatencies(bob, 30, 75);
    const flood = spawn(process.execPath, [flooder, url, tokens.mallory, "4000", "16"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let floodOutput = "";
    flood.stdout.on("data", (chunk: Buffer) => {
      floodOutput += chunk.toString();
    });
    const floodDone = new Promise<number | null>((resolve) => flood.once("close", resolve));
    while (!floodOutput.includes("flooding")) await sleep(10);
    await sleep(300);
    const during = await pacedLatencies(bob, 30, 75);
    expect(await floodDone).toBe(0);
    const { statuses, sample } = JSON.parse(floodOutput.trim().split("\n").at(-1)!) as {
      statuses: Record<string, number>;
      sample: { retryAfter: string; body: { error: { message: string } } };
    };
    const total = Object.values(statuses).reduce((sum, n) => sum + n, 0);
    console.log(
      `flood: ${total} requests in 4 s (${JSON.stringify(statuses)}); bob's median latency ` +
        `${median(before).toFixed(1)} ms before, ${median(during).toFixed(1)} ms during ` +
        `(max ${Math.max(...before).toFixed(1)} / ${Math.max(...during).toFixed(1)} ms)`,
    );
    // Past the limit, every request is refused; what got through is what the bucket allows (burst + 20/s, with
    // slack for the time the flood took to stop), however fast the flood came.
    expect(statuses["429"]).toBeGreaterThan(0);
    expect((statuses["200"] ?? 0) + statuses["429"]!).toBe(total);
    expect(statuses["200"] ?? 0).toBeLessThanOrEqual(20 + 20 * 6);
    expect(sample.retryAfter).toBe("1");
    expect(sample.body.error.message).toBe(
      "rate limit exceeded for client mallory: at most 20 requests per second (burst 20); retry after 1 s",
    );
    // Bob was never refused (each paced call above was served). How fast he stays is logged, not asserted: on a
    // loaded machine the latencies say more about the machine than the limiter (measured once without the limit,
    // --rate-limit 0: 31 ms -> 157 ms; with it, about as fast as before).

    const listed = await runCli(["online", "clients", "--domain", "math", "--db", db, "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    const { clients } = JSON.parse(listed.stdout) as {
      clients: Array<{
        client: string | null;
        selections: number;
        outcomes: number;
        successRate: number | null;
      }>;
    };
    expect(clients.map((row) => [row.client, row.outcomes, row.successRate])).toEqual([
      ["alice", 5, 0.6],
      ["bob", 2, 0.5],
      ["mallory", 3, 1],
    ]);
    // Mallory's selections: 3 reported, plus what the flood got through its bucket (burst + 20/s).
    const mallorySelections = clients.find((row) => row.client === "mallory")!.selections;
    expect(mallorySelections).toBeGreaterThan(3 + 20);
    expect(mallorySelections).toBeLessThan(3 + 20 + 20 * 6);

    const excluded = await runCli([
      "online",
      "clients",
      "--domain",
      "math",
      "--db",
      db,
      "--exclude",
      "mallory",
      "--reason",
      "flooding",
    ]);
    expect(excluded.code, excluded.stderr).toBe(0);
    expect(excluded.stderr).toContain("mallory excluded from learning in math");
    expect(excluded.stdout).toMatch(/mallory\s+\d+\s+3\s+100\.0%\s+EXCLUDED since \S+ \(flooding\)/);
    expect(excluded.stdout).toMatch(/alice\s+5\s+5\s+60\.0%\s+included/);
    // The learner's read leaves mallory's outcomes out; they stay stored.
    const learned = await store.listOutcomes({ domain: "math" });
    expect(learned.map((outcome) => outcome.client).sort()).toEqual([
      ...Array(5).fill("alice"),
      ...Array(2).fill("bob"),
    ]);
    expect(await store.listOutcomes({ domain: "math", includeExcluded: true })).toHaveLength(10);
    for (const client of [alice, bob, mallory]) await client.close();
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    await store.close();
  }
}, 120_000);
