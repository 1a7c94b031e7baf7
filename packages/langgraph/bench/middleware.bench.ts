// What experienceMiddleware adds to a createAgent run, per model call (p50 / p95 over many runs of one call each):
// the same agent without it, with it served (a selection from an in-process library service over a SQLite file of
// 200 entries, and the outcome reported when the run ends), and with it under an offline attempt (tfgrpo gives the
// block: no library call). The model is LangChain's in-process fake, so the numbers are the middleware's own cost,
// not a provider's latency. Run: pnpm --filter @tfgrpo/langgraph bench
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { createLibraryService } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import { createAgent } from "langchain";
import { experienceMiddleware } from "../src/experience-middleware.js";

const runs = Number(process.env.BENCH_RUNS ?? 400);
const warmup = 50;
const systemPrompt = "You are a careful problem solver. Give the final answer as \\boxed{...}.";
const question = "How many integers from 1 to 100 are divisible by 3 or 5?";

function quantiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** Runs the variants in turn, many rounds (so a busy machine slows them alike), and gives each one's quantiles. */
async function measure(variants: ReadonlyArray<() => Promise<unknown>>) {
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < warmup + runs; round++) {
    for (const [index, run] of variants.entries()) {
      const started = performance.now();
      await run();
      if (round >= warmup) times[index]!.push(performance.now() - started);
    }
  }
  return times.map(quantiles);
}

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
  const library = createLibraryService({ store });
  const model = () => new FakeListChatModel({ responses: ["The count is \\boxed{47}."] });
  const bare = createAgent({ model: model(), systemPrompt });
  const served = createAgent({
    model: model(),
    systemPrompt,
    middleware: [experienceMiddleware({ library, domain: "math", reward: () => 1 })],
  });
  const input = () => ({ messages: [{ role: "user", content: question }] });
  const attempt = () => ({
    taskId: "t",
    attempt: 0,
    promptBlock: "# Learned Experiences\n[G1]. Include both endpoints.",
    shownIds: ["G1"],
    seed: 1,
    temperature: 0.7,
    used: false,
  });
  const labels = [
    "createAgent, no middleware",
    "+ experienceMiddleware, served (select + report)",
    "+ experienceMiddleware, offline attempt",
  ];
  const measured = await measure([
    () => bare.invoke(input()),
    () => served.invoke(input()),
    () => runAgentAttempt(attempt(), () => served.invoke(input())),
  ]);
  const rows = labels.map((label, index) => [label, measured[index]!] as const);
  const base = rows[0]![1];
  console.log(
    `experienceMiddleware (LangChain createAgent), ${runs} runs of one model call each, in-process fake model`,
  );
  console.log("agent | p50 ms / call | p95 ms | added p50 ms");
  for (const [label, q] of rows) {
    console.log(`${label} | ${q.p50.toFixed(3)} | ${q.p95.toFixed(3)} | ${(q.p50 - base.p50).toFixed(3)}`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
