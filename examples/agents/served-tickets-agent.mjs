// A served agent whose reward comes from the team's own system, after the run (docs/agents.md "Rewards from your
// own system, after the run"). The team's ticket service is examples/tickets/tickets-server.mjs over HTTP; the
// agent (LangChain createAgent with tfgrpo's middleware) works in it through the service's tools. Once the run is
// over, the team reads the ticket back from its service and reports how the run went, by the run's id.
//
//   pnpm tfgrpo sim serve --port 8787 &        # the SIMULATED model server (or OPENAI_BASE_URL: your model)
//   TFGRPO_DB=team.db node examples/agents/served-tickets-agent.mjs T-1 "Bob Diaz"
//
// It prints the run id, the agent's answer, what the ticket service holds after the run and the library's reply to
// the report (the entries it credited). The outcome reaches `tfgrpo online --learner` like any other.
import { pathToFileURL } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { createAgent } from "langchain";
import { connectTickets, reassignedOutcome, startTicketService } from "./ticket-service.mjs";

const model = new ChatOpenAI({
  model: process.env.AGENT_MODEL ?? "sim-actor",
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
  configuration: {
    baseURL: process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`,
  },
});

/** The library the middleware reads and reports to: the one in $TFGRPO_DB (served runs need one). */
async function libraryFromEnv() {
  if (!process.env.TFGRPO_DB) throw new Error("set TFGRPO_DB to the library's database (e.g. team.db)");
  const [{ createLibraryService }, { createStore }] = await Promise.all([
    import("@tfgrpo/serving"),
    import("@tfgrpo/store"),
  ]);
  return createLibraryService({ store: await createStore(process.env.TFGRPO_DB) });
}

export const experience = experienceMiddleware({ library: await libraryFromEnv(), domain: "tickets" });

/** One request of the team's helpdesk: the agent works in the ticket service, then the team checks the service. */
export async function reassign(ticketsUrl, ticketId, person) {
  const tickets = await connectTickets(ticketsUrl);
  try {
    const agent = createAgent({
      model,
      tools: await tickets.langChainTools(),
      systemPrompt:
        "You are an IT helpdesk agent working in a ticket system. Do exactly what the request asks, nothing more, using the tools; then say what you changed.",
      middleware: [experience],
    });
    const state = await experience.run(() =>
      agent.invoke({ messages: [{ role: "user", content: `Reassign ticket ${ticketId} to ${person}.` }] }),
    );
    // The run is over and its reply is out. Later (here: at once), the team's reward from its own system:
    const runId = experience.runId(state);
    const outcome = await reassignedOutcome(tickets, ticketId, person);
    const reply = await experience.reportOutcome(runId, outcome);
    return { runId, answer: state.messages.at(-1)?.text, outcome, reply };
  } finally {
    await tickets.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const service = await startTicketService();
  try {
    const result = await reassign(service.url, process.argv[2] ?? "T-1", process.argv[3] ?? "Bob Diaz");
    console.log(JSON.stringify(result, null, 2));
  } finally {
    service.close();
  }
}
