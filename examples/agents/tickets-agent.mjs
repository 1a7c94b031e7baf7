// The team's helpdesk agent on the tickets example (examples/tickets): LangChain's createAgent, built per attempt
// with the ticket system's tools of that attempt (its own server process, reset for the task), and tfgrpo's
// experienceMiddleware. From examples/tickets (its actor.yaml and critic.yaml give the server and the reward):
//
//   export TFGRPO_ACTOR_CONFIG=actor.yaml TFGRPO_CRITIC_CONFIG=critic.yaml
//   tfgrpo learn --sim --agent ../agents/tickets-agent.mjs --domain tickets --train train.jsonl --val val.jsonl
//   tfgrpo eval  --sim --agent ../agents/tickets-agent.mjs --domain tickets --data tasks.jsonl --k 4 \
//     --library none --library tickets@head
//
// The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL; with `--sim`, tfgrpo sets SIM_PORT.
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { createAgent } from "langchain";

const model = new ChatOpenAI({
  model: process.env.AGENT_MODEL ?? "sim-actor",
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
  configuration: {
    baseURL: process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`,
  },
});
const experience = experienceMiddleware({ domain: "tickets" });

/** Called by tfgrpo for each attempt: `tools` act on this attempt's own ticket system. */
export function agent({ tools }) {
  return createAgent({
    model,
    tools,
    systemPrompt:
      "You are an IT helpdesk agent working in a ticket system. Do exactly what the request asks, nothing more, using the tools; then say what you changed.",
    middleware: [experience],
  });
}
