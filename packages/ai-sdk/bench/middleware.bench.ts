// What the AI SDK middleware adds to a ToolLoopAgent run, per model call (p50 / p95 over many runs of one call each):
// the same agent without it, with it served (a selection from an in-process library service over a SQLite file of
// 200 entries, reported at onFinish), and under an offline attempt (tfgrpo gives the block: no library call). The
// model is the AI SDK's in-process mock, so the numbers are the middleware's own cost, not a provider's latency.
// Variants run in turn, round by round, so a busy machine slows them alike. Run: pnpm --filter @tfgrpo/ai-sdk bench
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { runMiddlewareBench } from "@tfgrpo/serving/testing";
import { ToolLoopAgent, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { experienceMiddleware } from "../src/experience-middleware.js";

const runs = Number(process.env.BENCH_RUNS ?? 400);
const instructions = "You are a careful problem solver. Give the final answer as \\boxed{...}.";
const block = "# Learned Experiences\n[G1]. Include both endpoints.";

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

await runMiddlewareBench({
  title: `experienceMiddleware (AI SDK ai@6 ToolLoopAgent), ${runs} runs of one model call each, mock model`,
  runs,
  warmup: 50,
  variants: (library) => {
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 1 });
    const bare = new ToolLoopAgent({ model: model(), instructions });
    const served = new ToolLoopAgent({
      model: wrapLanguageModel({ model: model(), middleware: experience }),
      instructions,
      onFinish: experience.onFinish,
    });
    let index = 0;
    // A fresh task each run: a served run is a selection and a report of its own.
    const prompt = () => `How many integers from 1 to ${100 + index++} are divisible by 3 or 5?`;
    return [
      ["ToolLoopAgent, no middleware", () => bare.generate({ prompt: prompt() })],
      ["+ experienceMiddleware, served (select + report)", () => served.generate({ prompt: prompt() })],
      [
        "+ experienceMiddleware, offline attempt",
        () =>
          runAgentAttempt(makeAgentAttempt({ promptBlock: block }), () =>
            served.generate({ prompt: prompt() }),
          ),
      ],
    ];
  },
});
