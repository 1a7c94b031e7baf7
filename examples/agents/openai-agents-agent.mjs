// The team's agent: an OpenAI Agents SDK (@openai/agents 0.14.3, the last release for Node 20) Agent on the chat
// completions API of an OpenAI-compatible endpoint, run through tfgrpo's experienceRunner (with the team's Runner).
//
//   tfgrpo learn --agent examples/agents/openai-agents-agent.mjs --domain math --train train.jsonl --val val.jsonl ...
//   tfgrpo eval  --agent examples/agents/openai-agents-agent.mjs --domain math --data test.jsonl --library none --library math@head
//   node examples/agents/openai-agents-agent.mjs "What is 2 + 2?"     # one run, served from the library in $TFGRPO_DB
//
// The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL (tfgrpo never reads its key). With
// `--sim`, tfgrpo sets SIM_PORT and the agent talks to the SIMULATED model server.
import { pathToFileURL } from "node:url";
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import { experienceRunner } from "@tfgrpo/openai-agents";

// The SDK exports traces to OpenAI by default; this example's model need not be OpenAI's.
setTracingDisabled(true);

const runner = new Runner({
  modelProvider: new OpenAIProvider({
    baseURL: process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`,
    apiKey: process.env.OPENAI_API_KEY ?? "sim",
    useResponses: false, // chat completions: what OpenAI-compatible servers speak
  }),
});

/** Served for real (not under tfgrpo learn), the library the runner reads and reports to. */
async function libraryFromEnv() {
  if (!process.env.TFGRPO_DB) return undefined;
  const [{ createLibraryService }, { createStore }] = await Promise.all([
    import("@tfgrpo/serving"),
    import("@tfgrpo/store"),
  ]);
  return createLibraryService({ store: await createStore(process.env.TFGRPO_DB) });
}

// `learn --agent` runs `agent` through this runner: export both.
export const experience = experienceRunner({
  run: runner.run.bind(runner),
  library: await libraryFromEnv(),
  domain: "math",
  // Served for real, a run with a boxed answer is reported as a success (a team would check it properly).
  reward: (result) => /\\boxed\{[^}]+\}/.test(result.text),
});

export const agent = new Agent({
  name: "solver",
  instructions: "You are a careful problem solver. Give the final answer as \\boxed{...}.",
  model: process.env.AGENT_MODEL ?? "sim-actor",
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await experience.run(agent, process.argv[2] ?? "What is 2 + 2?");
  console.log(result.finalOutput);
}
