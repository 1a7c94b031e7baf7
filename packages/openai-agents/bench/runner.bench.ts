// What experienceRunner adds to an OpenAI Agents SDK run (@openai/agents 0.14.3), per model call (p50 / p95 over
// many runs of one call each): the SDK's `run` without it, through it served (a selection from an in-process library
// service over a SQLite file of 200 entries, reported when the run ends), and under an offline attempt (tfgrpo gives
// the block and seed: no library call). The model is an in-process fake, so the numbers are the runner's own cost,
// not a provider's latency. Variants run in turn, round by round. Run: pnpm --filter @tfgrpo/openai-agents bench
import { Agent, type Model, run, setTracingDisabled, Usage } from "@openai/agents";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { runMiddlewareBench } from "@tfgrpo/serving/testing";
import { experienceRunner } from "../src/experience-runner.js";

setTracingDisabled(true);
const runs = Number(process.env.BENCH_RUNS ?? 400);
const instructions = "You are a careful problem solver. Give the final answer as \\boxed{...}.";
const block = "# Learned Experiences\n[G1]. Include both endpoints.";

/** Answers every call at once with the same text. */
const fakeModel: Model = {
  async getResponse() {
    return {
      usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
      output: [
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "The count is \\boxed{47}." }],
        },
      ],
    };
  },
  // biome-ignore lint/correctness/useYield: the bench never streams.
  async *getStreamedResponse() {
    throw new Error("the bench does not stream");
  },
};

await runMiddlewareBench({
  title: `experienceRunner (@openai/agents 0.14.3), ${runs} runs of one model call each, in-process fake model`,
  runs,
  warmup: 50,
  variants: (library) => {
    const agent = new Agent({ name: "solver", instructions, model: fakeModel });
    const experience = experienceRunner({ run, library, domain: "math", reward: () => 1 });
    let index = 0;
    // A fresh task each run: a served run is a selection and a report of its own.
    const task = () => `How many integers from 1 to ${100 + index++} are divisible by 3 or 5?`;
    return [
      ["run(agent), no tfgrpo", () => run(agent, task())],
      ["experience.run, served (select + report)", () => experience.run(agent, task())],
      [
        "experience.run, offline attempt",
        () => runAgentAttempt(makeAgentAttempt({ promptBlock: block }), () => experience.run(agent, task())),
      ],
    ];
  },
});
