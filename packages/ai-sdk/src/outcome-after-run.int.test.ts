// The AI SDK middleware's outcomes after the run: a ToolLoopAgent works in the team's ticket service
// (examples/tickets/tickets-server.mjs over HTTP, its own process) through the service's tools, its model the
// SIMULATED server; after the run the team reads the ticket back and the outcome is reported, tied to the run: from
// the `outcome` callback (which the run does not wait for) or by the run's id.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createLibraryService, type ReportOutcomeReply } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { jsonSchema, stepCountIs, ToolLoopAgent, type ToolSet, tool, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experienceMiddleware } from "./experience-middleware.js";

interface TicketSession {
  callTool(name: string, args: Record<string, unknown>): Promise<string>;
  toolSpecs(): Promise<Array<{ name: string; description: string; inputSchema: object }>>;
  close(): Promise<unknown>;
}
interface TicketServiceModule {
  connectTickets(url: string): Promise<TicketSession>;
  reassignedOutcome(session: TicketSession, ticketId: string, person: string): Promise<{ success: boolean }>;
  startTicketService(): Promise<{ url: string; close(): void }>;
}

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../examples/agents");
const lesson =
  "Before assigning a ticket to a person, look up their user id with find_user and pass that id as the assignee, never their name.";

let world: SimLibraryWorld;
let service: { url: string; close(): void };
let tickets: TicketServiceModule;
beforeAll(async () => {
  world = await startSimLibraryWorld({ seed: 7, domain: "tickets", entries: [lesson] });
  tickets = (await import(path.join(examples, "ticket-service.mjs"))) as TicketServiceModule;
  service = await tickets.startTicketService();
});
afterAll(async () => {
  service?.close();
  await world?.close();
});

async function agentIn(session: TicketSession, experience: ReturnType<typeof experienceMiddleware>) {
  const tools: ToolSet = {};
  for (const spec of await session.toolSpecs()) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema(spec.inputSchema),
      execute: (input) => session.callTool(spec.name, input as Record<string, unknown>),
    });
  }
  const provider = createOpenAICompatible({ name: "sim", baseURL: world.sim.url, apiKey: "sim" });
  return new ToolLoopAgent({
    model: wrapLanguageModel({ model: provider.chatModel("sim-actor"), middleware: experience }),
    instructions: "You are an IT helpdesk agent working in a ticket system. Use the tools.",
    tools,
    stopWhen: stepCountIs(6),
    onFinish: experience.onFinish,
  });
}

describe("the AI SDK middleware's outcomes after the run", () => {
  it("reports an outcome callback's value once the run is over, and a report by run id later", async () => {
    let ids = 0;
    const library = createLibraryService({ store: world.store, generateId: () => `run-${++ids}` });
    const replies: ReportOutcomeReply[] = [];
    let letOutcomesRun = () => {};
    const outcomesMayRun = new Promise<void>((resolve) => {
      letOutcomesRun = resolve;
    });
    const sessions = new Map<string, TicketSession>();
    const experience = experienceMiddleware({
      library,
      domain: "tickets",
      onReport: (reply) => replies.push(reply),
      outcome: async ({ task, runId, steps }) => {
        await outcomesMayRun;
        expect(steps.some((step) => step.toolCalls.length > 0)).toBe(true);
        const [, ticketId, person] = /^Reassign ticket (T-\d+) to (.+)\.$/.exec(task)!;
        expect(runId).toMatch(/^run-/);
        return tickets.reassignedOutcome(sessions.get(task)!, ticketId!, person!);
      },
    });
    const runIds: string[] = [];
    for (const [ticketId, person] of [
      ["T-1", "Bob Diaz"],
      ["T-5", "Bob Diaz"],
    ] as const) {
      const session = await tickets.connectTickets(service.url);
      const task = `Reassign ticket ${ticketId} to ${person}.`;
      sessions.set(task, session);
      const result = await (await agentIn(session, experience)).generate({ prompt: task });
      runIds.push(experience.runId(result)!);
    }
    // The runs returned; their outcomes wait for the team's check.
    expect(replies).toEqual([]);
    letOutcomesRun();
    await experience.settled();
    // The outcomes run at once once let: their replies come in whichever order they finish.
    expect(replies.map((reply) => reply.selectionId).sort()).toEqual([...runIds].sort());
    for (const [task, session] of sessions) {
      const [, ticketId, person] = /^Reassign ticket (T-\d+) to (.+)\.$/.exec(task)!;
      const truth = await tickets.reassignedOutcome(session, ticketId!, person!);
      const runId = runIds[[...sessions.keys()].indexOf(task)];
      const reply = replies.find((candidate) => candidate.selectionId === runId)!;
      expect(reply.success).toBe(truth.success);
      const stored = (await world.store.getSelection(reply.selectionId))!.outcome!;
      const trajectory = stored.trajectory as Array<{ role: string; content: unknown }>;
      expect(trajectory[0]).toEqual({ role: "user", content: task });
      expect(trajectory.some((message) => message.role === "tool")).toBe(true);
      await session.close();
    }

    // By run id, from the team's code after the run; the messages recorded at onFinish go with it.
    const byHand = experienceMiddleware({ library, domain: "tickets" });
    const session = await tickets.connectTickets(service.url);
    const result = await (await agentIn(session, byHand)).generate({
      prompt: "Reassign ticket T-2 to Carol Evans.",
    });
    const runId = byHand.runId(result);
    expect((await world.store.getSelection(runId!))!.outcome).toBeNull();
    const outcome = await tickets.reassignedOutcome(session, "T-2", "Carol Evans");
    const reply = await byHand.reportOutcome(runId, outcome);
    expect(reply).toMatchObject({ selectionId: runId, success: outcome.success });
    const stored = (await world.store.getSelection(runId!))!.outcome!;
    expect((stored.trajectory as Array<{ role: string }>).some((message) => message.role === "tool")).toBe(
      true,
    );
    await session.close();
  }, 60_000);
});
