/**
 * Applying 1,000 mixed operations to a 10,000-entry library, and reading the head back, on a SQLite file and in
 * memory. Run with `pnpm bench` (node --conditions=source --import tsx bench/apply.bench.ts).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Operation } from "@tfgrpo/protocol";
import { SqliteStore } from "../src/index.js";

const libraryEntries = 10_000;
const opsPerApply = 1_000;
const rounds = 5;

interface Row {
  backend: string;
  case: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  note: string;
}

/** 400 adds, 300 modifies (text or status), 200 deletes, 100 two-source merges: all on distinct live entries. */
function mixedOps(liveIds: string[], round: number): Operation[] {
  const ids = [...liveIds];
  const take = () => ids.splice((ids.length * 7919 * (round + 1)) % ids.length, 1)[0]!;
  const ops: Operation[] = [];
  for (let i = 0; i < 400; i++)
    ops.push({ op: "add", text: `Round ${round} new rule ${i}: check the units.`, reason: "bench" });
  for (let i = 0; i < 300; i++) {
    ops.push(
      i % 2 === 0
        ? { op: "modify", id: take(), text: `Rewritten in round ${round} (${i}).`, reason: "bench" }
        : { op: "modify", id: take(), status: "active", reason: "bench" },
    );
  }
  for (let i = 0; i < 200; i++) ops.push({ op: "delete", id: take(), reason: "bench" });
  for (let i = 0; i < 100; i++)
    ops.push({ op: "merge", ids: [take(), take()], text: `Merged rule ${i}.`, reason: "bench" });
  return ops;
}

function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  return fn().then((value) => [value, performance.now() - start]);
}

function stats(samples: number[]): { median: number; min: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}

async function benchBackend(backend: string, file: string): Promise<Row[]> {
  const store = new SqliteStore({ path: file });
  await store.setup();
  const rows: Row[] = [];

  const seed: Operation[] = Array.from({ length: libraryEntries }, (_, i) => ({
    op: "add",
    text: `Rule ${i}: when a problem has property ${i % 97}, verify the result with an independent method.`,
    status: i % 3 === 0 ? "candidate" : "active",
    reason: "bench seed",
  }));
  const [, seedMs] = await time(() =>
    store.applyOperations("bench", seed, { parent: null, state: "committed" }),
  );
  rows.push({
    backend,
    case: `build: ${libraryEntries} adds`,
    medianMs: seedMs,
    minMs: seedMs,
    maxMs: seedMs,
    note: "1 run",
  });

  const applyMs: number[] = [];
  const headMs: number[] = [];
  const oldMs: number[] = [];
  const heapMb: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const head = (await store.getHead("bench"))!;
    const live = head.experiences.filter((e) => e.status !== "archived").map((e) => e.id);
    const ops = mixedOps(live, round);
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const [, ms] = await time(() =>
      store.applyOperations("bench", ops, { parent: head.version, state: "committed" }),
    );
    applyMs.push(ms);
    const [snapshot, readMs] = await time(async () => (await store.getHead("bench"))!);
    headMs.push(readMs);
    heapMb.push((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20);
    if (snapshot.experiences.length !== libraryEntries + (round + 1) * 500) {
      throw new Error(`unexpected entry count ${snapshot.experiences.length}`);
    }
    const [, oldReadMs] = await time(() => store.getVersion("bench", 1));
    oldMs.push(oldReadMs);
  }
  const a = stats(applyMs);
  const h = stats(headMs);
  const o = stats(oldMs);
  rows.push({
    backend,
    case: `apply ${opsPerApply} mixed ops`,
    medianMs: a.median,
    minMs: a.min,
    maxMs: a.max,
    note: `${rounds} runs; 400 add, 300 modify, 200 delete, 100 merge`,
  });
  rows.push({
    backend,
    case: "read head back",
    medianMs: h.median,
    minMs: h.min,
    maxMs: h.max,
    note: `${libraryEntries + 500}-${libraryEntries + rounds * 500} entries; heap +${stats(heapMb).median.toFixed(1)} MB (apply+read)`,
  });
  rows.push({
    backend,
    case: "read v1 (old version)",
    medianMs: o.median,
    minMs: o.min,
    maxMs: o.max,
    note: `${libraryEntries} entries`,
  });
  await store.close();
  return rows;
}

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-store-bench-"));
try {
  const file = path.join(dir, "bench.db");
  const rows = [
    ...(await benchBackend("sqlite file", file)),
    ...(await benchBackend("sqlite :memory:", ":memory:")),
  ];
  const size = statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const header = ["backend", "case", "median ms", "min ms", "max ms", "note"];
  const cells = rows.map((r) => [
    r.backend,
    r.case,
    r.medianMs.toFixed(1),
    r.minMs.toFixed(1),
    r.maxMs.toFixed(1),
    r.note,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i >= 2 && i <= 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(
    `@tfgrpo/store: ${opsPerApply} operations on a ${libraryEntries}-entry library (node ${process.version})`,
  );
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
  console.log(`file size after ${rounds + 1} versions: ${(size / 2 ** 20).toFixed(1)} MB (db + wal)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
