// What the AI SDK middleware adds to a ToolLoopAgent run, per model call (p50 / p95 over many runs of one call each):
// the same agent without it, with it served (a selection from an in-process library service over a SQLite file of
// 200 entries, reported at onFinish), and under an offline attempt (tfgrpo gives the block: no library call). The
// model is the AI SDK's in-process mock, so the numbers are the middleware's own cost, not a provider's latency.
// Variants run in turn, round by round, so a busy machine slows them alike. Run: pnpm --filter @tfgrpo/ai-sdk bench
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { createLibraryService } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import { ToolLoopAgent, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { experienceMiddleware } from "../src/experience-middleware.js";

const runs = Number(process.env.BENCH_RUNS ?? 400);
const warmup = 50;
const instructions = "You are a careful problem solver. Give the final answer as \\boxed{...}.";

const model = () =>
  new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text: "The count is \\boxed{47}." }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 5, text: 5, reasoning: 0 },
      },
      warnings: [],
    }),
  });

function quantiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-ai-sdk-bench-"));
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
  const experience = experienceMiddleware({
    library: createLibraryService({ store }),
    domain: "math",
    reward: () => 1,
  });
  const bare = new ToolLoopAgent({ model: model(), instructions });
  const served = new ToolLoopAgent({
    model: wrapLanguageModel({ model: model(), middleware: experience }),
    instructions,
    onFinish: experience.onFinish,
  });
  let index = 0;
  // A fresh task each run: a served run is a selection and a report of its own.
  const prompt = () => `How many integers from 1 to ${100 + index++} are divisible by 3 or 5?`;
  const attempt = () => ({
    taskId: "t",
    attempt: 0,
    promptBlock: "# Learned Experiences\n[G1]. Include both endpoints.",
    shownIds: ["G1"],
    seed: 1,
    temperature: 0.7,
    used: false,
  });
  const variants = [
    ["ToolLoopAgent, no middleware", () => bare.generate({ prompt: prompt() })],
    ["+ experienceMiddleware, served (select + report)", () => served.generate({ prompt: prompt() })],
    [
      "+ experienceMiddleware, offline attempt",
      () => runAgentAttempt(attempt(), () => served.generate({ prompt: prompt() })),
    ],
  ] as const;
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < warmup + runs; round++) {
    for (const [at, [, run]] of variants.entries()) {
      const started = performance.now();
      await run();
      if (round >= warmup) times[at]!.push(performance.now() - started);
    }
  }
  const measured = times.map(quantiles);
  console.log(
    `experienceMiddleware (AI SDK ai@6 ToolLoopAgent), ${runs} runs of one model call each, mock model`,
  );
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
