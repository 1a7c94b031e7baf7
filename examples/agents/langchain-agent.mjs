// The team's agent: LangChain's createAgent with ChatOpenAI and tfgrpo's experienceMiddleware.
//
//   tfgrpo learn --agent examples/agents/langchain-agent.mjs --domain math --train train.jsonl --val val.jsonl ...
//   tfgrpo eval  --agent examples/agents/langchain-agent.mjs --domain math --data test.jsonl --library none --library math@head
//   node examples/agents/langchain-agent.mjs "What is 2 + 2?"     # one run, served from the library in $TFGRPO_DB
//
// The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL (tfgrpo never reads its key). With
// `--sim`, tfgrpo sets SIM_PORT and the agent talks to the SIMULATED model server.
import { pathToFileURL } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { createAgent } from "langchain";

const baseURL = process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`;
const model = new ChatOpenAI({
  model: process.env.AGENT_MODEL ?? "sim-actor",
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
  configuration: { baseURL },
});

/** Served for real (not under tfgrpo learn), the library the middleware reads and reports to. */
async function libraryFromEnv() {
  if (!process.env.TFGRPO_DB) return undefined;
  const [{ createLibraryService }, { createStore }] = await Promise.all([
    import("@tfgrpo/serving"),
    import("@tfgrpo/store"),
  ]);
  return createLibraryService({ store: await createStore(process.env.TFGRPO_DB) });
}

export const experience = experienceMiddleware({
  library: await libraryFromEnv(),
  domain: "math",
  // Served for real, a run with a boxed answer is reported as a success (a team would check it properly).
  reward: (run) => /\\boxed\{[^}]+\}/.test(run.finalText),
});

export const agent = createAgent({
  model,
  tools: [],
  systemPrompt: "You are a careful problem solver. Give the final answer as \\boxed{...}.",
  middleware: [experience],
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // experience.run: a run that any error ends (not only a model call's) is reported as one failure.
  const state = await experience.run(() =>
    agent.invoke({ messages: [{ role: "user", content: process.argv[2] ?? "What is 2 + 2?" }] }),
  );
  console.log(state.messages.at(-1)?.text);
}
