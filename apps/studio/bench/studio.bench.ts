/**
 * Server time of studio pages over a 10,000-entry library version on a SQLite file: the request through the whole
 * app (guard, store read, filter and sort, HTML), measured with `app.request` so no network or browser time counts.
 * Goal: under 1 s for the full version page. Run with `pnpm bench` (node --conditions=source --import tsx ...).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Operation } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { createStudioApp } from "../src/index.js";

const entries = 10_000;
const rounds = 7;
const goalMs = 1000;

interface Sample {
  ms: number;
  cpuMs: number;
  bytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const directory = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-studio-bench-"));
const store = await createStore(path.join(directory, "bench.db"));
try {
  const seed: Operation[] = Array.from({ length: entries }, (_, i) => ({
    op: "add",
    text: `When a problem has property ${i % 97} and shape ${i % 13}, verify the result ${i} with an independent method.`,
    status: i % 3 === 0 ? "candidate" : "active",
    ...(i % 50 === 0 ? { conflictGroup: `cg-${i % 7}` } : {}),
    reason: "bench seed",
  }));
  const v1 = await store.applyOperations("bench", seed, { parent: null, state: "committed" });
  await store.updateStats(
    "bench",
    Array.from({ length: entries }, (_, i) => ({
      id: `G${i}`,
      shown: i % 40,
      success: (i % 40) * 0.6,
      sumDelta: ((i % 11) - 5) / 10,
      // Two entries in three have a contrast (n groups whose differences average d), so the credit cells are drawn.
      ...(i % 3 === 0
        ? {}
        : {
            contrast: {
              n: 1 + (i % 9),
              sum: (1 + (i % 9)) * (((i % 11) - 5) / 20),
              sumSquares: (1 + (i % 9)) * ((((i % 11) - 5) / 20) ** 2 + 0.05),
            },
          }),
    })),
  );
  const edits: Operation[] = Array.from({ length: 500 }, (_, i) => ({
    op: "modify",
    id: `G${i * 20}`,
    text: `When a problem has property ${i}, check the result twice with an independent method.`,
    reason: "bench edit",
  }));
  await store.applyOperations("bench", edits, { parent: v1.version.version, state: "committed" });
  const studio = createStudioApp({ store });
  const cases: Array<[string, string]> = [
    ["version page, all live entries", "/d/bench"],
    ["version page, sorted by utility", "/d/bench?sort=utility&dir=desc&status=all"],
    ["version page, search", "/d/bench?q=property+7"],
    ["review queue", "/d/bench/review"],
    ["diff v1 -> v2 (500 rewrites)", "/d/bench/diff?from=1&to=2"],
    ["entry history", "/d/bench/e/G9980"],
  ];
  const rows: Array<Record<string, string | number>> = [];
  for (const [name, url] of cases) {
    const samples: Sample[] = [];
    for (let round = 0; round < rounds + 1; round++) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      const response = await studio.app.request(`http://127.0.0.1${url}`);
      const body = await response.text();
      const used = process.cpuUsage(cpu);
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body.slice(0, 200)}`);
      // The first request warms the code paths; it is not counted.
      if (round > 0)
        samples.push({
          ms: performance.now() - start,
          cpuMs: (used.user + used.system) / 1000,
          bytes: body.length,
        });
    }
    const ms = samples.map((s) => s.ms);
    rows.push({
      case: name,
      medianMs: Number(median(ms).toFixed(1)),
      minMs: Number(Math.min(...ms).toFixed(1)),
      maxMs: Number(Math.max(...ms).toFixed(1)),
      cpuMs: Number(median(samples.map((s) => s.cpuMs)).toFixed(1)),
      kB: Math.round(samples[0]!.bytes / 1024),
    });
  }
  studio.close();
  console.log(
    `studio pages over a ${entries}-entry library (SQLite file), ${rounds} runs each after one warm-up; load: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.table(rows);
  const full = rows[0]!.medianMs as number;
  console.log(
    `${full <= goalMs ? "PASS" : "FAIL"}: full version page ${full} ms (goal < ${goalMs} ms server time)`,
  );
  if (full > goalMs) process.exitCode = 1;
} finally {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
}
