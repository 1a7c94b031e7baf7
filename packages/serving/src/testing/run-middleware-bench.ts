import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createStore } from "@tfgrpo/store";
import { createLibraryService, type LibraryService } from "../index.js";

export interface MiddlewareBenchOptions {
  /** The table's first line. */
  title: string;
  runs: number;
  warmup: number;
  /** The variants, by label, given a library service over a SQLite file of 200 entries; the first is the baseline. */
  variants(library: LibraryService): ReadonlyArray<readonly [label: string, run: () => Promise<unknown>]>;
}

function quantiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * What an agent middleware adds per model call: runs the variants in turn, many rounds (so a busy machine slows
 * them alike), and prints each one's p50 / p95 and its p50 over the baseline's.
 */
export async function runMiddlewareBench(options: MiddlewareBenchOptions): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-middleware-bench-"));
  const store = await createStore(path.join(dir, "bench.db"));
  try {
    await store.applyOperations(
      "math",
      Array.from({ length: 200 }, (_, index) => ({
        op: "add" as const,
        text: `Lesson ${index}: when a count runs over a range of integers, include both endpoints (${index}).`,
        reason: "bench",
        status: "active" as const,
      })),
      { parent: null, state: "committed" },
    );
    const variants = options.variants(createLibraryService({ store }));
    const times = variants.map(() => [] as number[]);
    for (let round = 0; round < options.warmup + options.runs; round++) {
      for (const [at, [, run]] of variants.entries()) {
        const started = performance.now();
        await run();
        if (round >= options.warmup) times[at]!.push(performance.now() - started);
      }
    }
    const measured = times.map(quantiles);
    console.log(options.title);
    console.log("agent | p50 ms / call | p95 ms | added p50 ms");
    for (const [at, [label]] of variants.entries()) {
      const q = measured[at]!;
      console.log(
        `${label} | ${q.p50.toFixed(3)} | ${q.p95.toFixed(3)} | ${(q.p50 - measured[0]!.p50).toFixed(3)}`,
      );
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
