/**
 * Outcome writes per second (online learning: every served selection's outcome is stored with the credit of the
 * entries it showed, in one transaction), on a SQLite file and on PostgreSQL on loopback, one writer at a time, 8
 * and 32 at once (reports arriving together share one transaction on both backends). Run with `pnpm bench` (node --conditions=source --import tsx bench/outcomes.bench.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Operation } from "@tfgrpo/protocol";
import { createStore, type Store } from "../src/index.js";
import { startPostgresServer } from "../src/testing/postgres-server.js";

const entries = 50;
const shownPerSelection = 5;
const outcomes = 2000;

async function prepare(store: Store, domain: string): Promise<void> {
  const ops: Operation[] = Array.from({ length: entries }, (_, i) => ({
    op: "add",
    text: `Rule ${i}: check the result another way.`,
    status: "active",
    reason: "bench",
  }));
  await store.applyOperations(domain, ops, { parent: null, state: "committed" });
  for (let i = 0; i < outcomes; i++) {
    await store.recordSelection({
      selectionId: `s${i}`,
      domain,
      version: 1,
      entryIds: Array.from({ length: shownPerSelection }, (_, k) => `G${(i * 7 + k * 11) % entries}`),
      explorationIds: [],
      task: `Task ${i}`,
      servedAt: new Date().toISOString(),
    });
  }
}

/** Reports every outcome with `writers` concurrent writers; returns outcomes per second. */
async function report(store: Store, writers: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = next++; i < outcomes; i = next++) {
        await store.reportOutcome({
          selectionId: `s${i}`,
          reward: i % 3 === 0 ? 1 : 0,
          success: i % 3 === 0,
        });
      }
    }),
  );
  return outcomes / ((performance.now() - start) / 1000);
}

async function bench(backend: string, open: (name: string) => Promise<string>): Promise<string[]> {
  const lines: string[] = [];
  for (const writers of [1, 8, 32]) {
    const store = await createStore(await open(`outcomes_${writers}`));
    try {
      await prepare(store, "math");
      const perSecond = await report(store, writers);
      const counts = await store.countOutcomes("math");
      if (counts.reported !== outcomes) throw new Error(`${backend}: ${counts.reported} outcomes stored`);
      const shown = (await store.getHead("math"))!.experiences.reduce((sum, e) => sum + e.stats.shown, 0);
      if (shown !== outcomes * shownPerSelection)
        throw new Error(`${backend}: credit counted ${shown} times`);
      lines.push(
        `${backend.padEnd(18)} ${String(writers).padStart(7)}  ${perSecond.toFixed(0).padStart(10)}`,
      );
    } finally {
      await store.close();
    }
  }
  return lines;
}

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-outcomes-bench-"));
try {
  const lines = await bench("sqlite file", async (name) => path.join(dir, `${name}.db`));
  try {
    await using server = await startPostgresServer();
    lines.push(...(await bench("postgres loopback", (name) => server.createDatabase(name))));
  } catch (error) {
    lines.push(`postgres: skipped (${(error as Error).message.split("\n")[0]})`);
  }
  console.log(
    `@tfgrpo/store: ${outcomes} outcome reports, each crediting ${shownPerSelection} of ${entries} entries (node ${process.version})`,
  );
  console.log(`${"backend".padEnd(18)} ${"writers".padStart(7)}  ${"outcomes/s".padStart(10)}`);
  for (const line of lines) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
