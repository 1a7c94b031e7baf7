// What experienceMiddleware adds to a createAgent run, per model call (p50 / p95 over many runs of one call each):
// the same agent without it, with it served (a selection from an in-process library service over a SQLite file of
// 200 entries, and the outcome reported when the run ends), and with it under an offline attempt (tfgrpo gives the
// block: no library call). The model is LangChain's in-process fake, so the numbers are the middleware's own cost,
// not a provider's latency. Run: pnpm --filter @tfgrpo/langgraph bench
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { runMiddlewareBench } from "@tfgrpo/serving/testing";
import { createAgent } from "langchain";
import { experienceMiddleware } from "../src/experience-middleware.js";

const runs = Number(process.env.BENCH_RUNS ?? 400);
const systemPrompt = "You are a careful problem solver. Give the final answer as \\boxed{...}.";
const question = "How many integers from 1 to 100 are divisible by 3 or 5?";
const block = "# Learned Experiences\n[G1]. Include both endpoints.";

await runMiddlewareBench({
  title: `experienceMiddleware (LangChain createAgent), ${runs} runs of one model call each, in-process fake model`,
  runs,
  warmup: 50,
  variants: (library) => {
    const model = () => new FakeListChatModel({ responses: ["The count is \\boxed{47}."] });
    const bare = createAgent({ model: model(), systemPrompt });
    const served = createAgent({
      model: model(),
      systemPrompt,
      middleware: [experienceMiddleware({ library, domain: "math", reward: () => 1 })],
    });
    const input = () => ({ messages: [{ role: "user", content: question }] });
    return [
      ["createAgent, no middleware", () => bare.invoke(input())],
      ["+ experienceMiddleware, served (select + report)", () => served.invoke(input())],
      [
        "+ experienceMiddleware, offline attempt",
        () => runAgentAttempt(makeAgentAttempt({ promptBlock: block }), () => served.invoke(input())),
      ],
    ];
  },
});
