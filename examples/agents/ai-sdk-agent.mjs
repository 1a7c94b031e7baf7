// The team's agent: a Vercel AI SDK (ai@6) ToolLoopAgent whose model is wrapped with tfgrpo's middleware.
//
//   tfgrpo learn --agent examples/agents/ai-sdk-agent.mjs --domain math --train train.jsonl --val val.jsonl ...
//   tfgrpo eval  --agent examples/agents/ai-sdk-agent.mjs --domain math --data test.jsonl --library none --library math@head
//   node examples/agents/ai-sdk-agent.mjs "What is 2 + 2?"     # one run, served from the library in $TFGRPO_DB
//
// The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL (tfgrpo never reads its key). With
// `--sim`, tfgrpo sets SIM_PORT and the agent talks to the SIMULATED model server.
import { pathToFileURL } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { experienceMiddleware } from "@tfgrpo/ai-sdk";
import { stepCountIs, ToolLoopAgent, wrapLanguageModel } from "ai";

const provider = createOpenAICompatible({
  name: "team",
  baseURL: process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`,
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
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
  reward: (run) => /\\boxed\{[^}]+\}/.test(run.text),
});

export const agent = new ToolLoopAgent({
  model: wrapLanguageModel({
    model: provider.chatModel(process.env.AGENT_MODEL ?? "sim-actor"),
    middleware: experience,
  }),
  instructions: "You are a careful problem solver. Give the final answer as \\boxed{...}.",
  stopWhen: stepCountIs(6),
  onFinish: experience.onFinish,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // experience.run: a run that any error ends (not only a model call's) is reported as one failure.
  const result = await experience.run(() => agent.generate({ prompt: process.argv[2] ?? "What is 2 + 2?" }));
  console.log(result.text);
}
