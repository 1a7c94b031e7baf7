/**
 * Applying 1,000 mixed operations to a 10,000-entry library, and reading the head back, on a SQLite file, in memory
 * and on PostgreSQL (a real server started for the bench on loopback, as the tests do; skipped with a note when
 * PostgreSQL is not installed). Run with `pnpm bench` (node --conditions=source --import tsx bench/apply.bench.ts).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Operation } from "@tfgrpo/protocol";
import { createStore, type Store } from "../src/index.js";
import { startPostgresServer } from "../src/testing/postgres-server.js";

const libraryEntries = 10_000;
const opsPerApply = 1_000;
const rounds = 7;

interface Row {
  backend: string;
  case: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median CPU time of this process: steadier than wall time on a busy machine. */
  cpuMs: number;
  note: string;
}

interface Sample {
  ms: number;
  cpuMs: number;
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

async function time<T>(fn: () => Promise<T>): Promise<[T, Sample]> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return [value, { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 }];
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function summarize(backend: string, name: string, samples: Sample[], note: string): Row {
  const ms = samples.map((s) => s.ms);
  return {
    backend,
    case: name,
    medianMs: median(ms),
    minMs: Math.min(...ms),
    maxMs: Math.max(...ms),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    note,
  };
}

async function benchBackend(backend: string, location: string): Promise<Row[]> {
  const store: Store = await createStore(location);
  const rows: Row[] = [];

  const seed: Operation[] = Array.from({ length: libraryEntries }, (_, i) => ({
    op: "add",
    text: `Rule ${i}: when a problem has property ${i % 97}, verify the result with an independent method.`,
    status: i % 3 === 0 ? "candidate" : "active",
    reason: "bench seed",
  }));
  const [, seedSample] = await time(() =>
    store.applyOperations("bench", seed, { parent: null, state: "committed" }),
  );
  rows.push(summarize(backend, `build: ${libraryEntries} adds`, [seedSample], "1 run"));

  const apply: Sample[] = [];
  const readHead: Sample[] = [];
  const readOld: Sample[] = [];
  const heapMb: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const head = (await store.getHead("bench"))!;
    const live = head.experiences.filter((e) => e.status !== "archived").map((e) => e.id);
    const ops = mixedOps(live, round);
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const [, applied] = await time(() =>
      store.applyOperations("bench", ops, { parent: head.version, state: "committed" }),
    );
    apply.push(applied);
    const [snapshot, read] = await time(async () => (await store.getHead("bench"))!);
    readHead.push(read);
    heapMb.push((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20);
    if (snapshot.experiences.length !== libraryEntries + (round + 1) * 500) {
      throw new Error(`unexpected entry count ${snapshot.experiences.length}`);
    }
    readOld.push((await time(() => store.getVersion("bench", 1)))[1]);
  }
  rows.push(
    summarize(
      backend,
      `apply ${opsPerApply} mixed ops`,
      apply,
      `${rounds} runs; 400 add, 300 modify, 200 delete, 100 merge`,
    ),
  );
  rows.push(
    summarize(
      backend,
      "read head back",
      readHead,
      `${libraryEntries + 500}-${libraryEntries + rounds * 500} entries; heap +${median(heapMb).toFixed(1)} MB (apply+read)`,
    ),
  );
  rows.push(summarize(backend, "read v1 (old version)", readOld, `${libraryEntries} entries`));

  // The size real runs have (the reference libraries hold 27 and 46 entries): a consolidation step on 200 entries.
  const small: Operation[] = Array.from({ length: 200 }, (_, i) => ({
    op: "add",
    text: `Small rule ${i}.`,
    reason: "seed",
  }));
  let parent = (await store.applyOperations("small", small, { parent: null, state: "committed" })).version
    .version;
  const smallApply: Sample[] = [];
  const smallRead: Sample[] = [];
  for (let round = 0; round < 20; round++) {
    const ops: Operation[] = [
      { op: "add", text: `New in round ${round}.`, reason: "r" },
      { op: "modify", id: `G${round}`, text: `Rewritten ${round}.`, reason: "r" },
      { op: "delete", id: `G${round + 50}`, reason: "r" },
      { op: "merge", ids: [`G${round + 100}`, `G${round + 150}`], text: `Merged ${round}.`, reason: "r" },
    ];
    const [result, sample] = await time(() =>
      store.applyOperations("small", ops, { parent, state: "committed" }),
    );
    parent = result.version.version;
    smallApply.push(sample);
    smallRead.push((await time(() => store.getHead("small")))[1]);
  }
  rows.push(
    summarize(backend, "apply 4 ops, 200 entries", smallApply, "20 runs; add, modify, delete, merge"),
  );
  rows.push(summarize(backend, "read head, 200 entries", smallRead, "20 runs"));
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
  let postgresNote = "";
  try {
    await using server = await startPostgresServer();
    // The test server's settings (fsync off): the bench measures the work and the round trips, not the disk.
    rows.push(...(await benchBackend("postgres loopback", await server.createDatabase("bench"))));
    postgresNote = `postgres: ${server.url().replace(server.password, "***")} (fsync=off, synchronous_commit=off)`;
  } catch (error) {
    postgresNote = `postgres: skipped (${(error as Error).message.split("\n")[0]})`;
  }
  const header = ["backend", "case", "median ms", "min ms", "max ms", "cpu ms", "note"];
  const cells = rows.map((r) => [
    r.backend,
    r.case,
    r.medianMs.toFixed(1),
    r.minMs.toFixed(1),
    r.maxMs.toFixed(1),
    r.cpuMs.toFixed(1),
    r.note,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i >= 2 && i <= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(
    `@tfgrpo/store: ${opsPerApply} operations on a ${libraryEntries}-entry library (node ${process.version})`,
  );
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(line(c));
  console.log(`file size after ${rounds + 1} versions: ${(size / 2 ** 20).toFixed(1)} MB (db + wal)`);
  console.log(postgresNote);
  // The goal for the server backend: within 3x SQLite's file on loopback (apply + read the head back).
  const median = (backend: string, name: string) =>
    rows.find((r) => r.backend === backend && r.case === name)?.medianMs;
  const sqlite =
    (median("sqlite file", `apply ${opsPerApply} mixed ops`) ?? 0) +
    (median("sqlite file", "read head back") ?? 0);
  const pg =
    (median("postgres loopback", `apply ${opsPerApply} mixed ops`) ?? 0) +
    (median("postgres loopback", "read head back") ?? 0);
  if (pg > 0)
    console.log(
      `apply + read head back: postgres ${pg.toFixed(1)} ms vs sqlite file ${sqlite.toFixed(1)} ms = ${(pg / sqlite).toFixed(2)}x (goal: within 3x)`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
