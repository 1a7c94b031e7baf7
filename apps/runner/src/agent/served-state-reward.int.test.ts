// Served agents rewarded from the team's own system after the run (docs/agents.md "Rewards from your own system,
// after the run"): a createAgent agent works in the team's ticket service (examples/tickets/tickets-server.mjs over
// HTTP, its own process), ChatOpenAI talks to the SIMULATED model server, the library is a SQLite file. After each
// run the team reads the ticket back from its service and reports: by the run's id (`reportOutcome(runId, ...)`) or
// from the middleware's `outcome` callback, which the run does not wait for. Each outcome is tied to its run (its
// selection, its messages), and the domain's learner reads them all as it reads any outcome.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import type { ReportOutcomeReply } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createLibraryService } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { createStore } from "@tfgrpo/store";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOnlineLearnerService } from "../online/online-learner-service.js";
import { simModelsConfig } from "../runtime/start-sim-world.js";
import { repositoryRoot } from "../testing/spawn-cli.js";

interface TicketSession {
  callTool(name: string, args: Record<string, unknown>): Promise<string>;
  langChainTools(): Promise<never[]>;
  close(): Promise<unknown>;
}
interface TicketServiceModule {
  connectTickets(url: string): Promise<TicketSession>;
  reassignedOutcome(
    tickets: TicketSession,
    ticketId: string,
    person: string,
  ): Promise<{ success: boolean; feedback: string }>;
  startTicketService(): Promise<{ url: string; close(): void }>;
}

const exampleDir = path.join(repositoryRoot, "examples/agents");
const lesson =
  "Before assigning a ticket to a person, look up their user id with find_user and pass that id as the assignee, never their name.";
const systemPrompt =
  "You are an IT helpdesk agent working in a ticket system. Do exactly what the request asks, nothing more, using the tools; then say what you changed.";
/** Requests on tickets the seed state does not already give to the person. */
const requests = [
  ["T-1", "Bob Diaz"],
  ["T-2", "Carol Evans"],
  ["T-5", "Bob Diaz"],
  ["T-4", "Carol Evans"],
] as const;

let temporary: TemporaryDirectory;
let world: SimLibraryWorld;
let db: string;
let service: { url: string; close(): void };
let tickets: TicketServiceModule;
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-state-reward-");
  db = path.join(temporary.path, "team.db");
  world = await startSimLibraryWorld({ seed: 7, db, domain: "tickets", entries: [lesson] });
  tickets = (await import(path.join(exampleDir, "ticket-service.mjs"))) as TicketServiceModule;
  service = await tickets.startTicketService();
});
afterAll(async () => {
  service?.close();
  await world?.close();
  await temporary?.[Symbol.asyncDispose]();
});

const model = () =>
  new ChatOpenAI({
    model: "sim-actor",
    apiKey: "sim",
    maxRetries: 0,
    configuration: { baseURL: world.sim.url },
  });

/** The ticket's assignee as the service holds it, read by the test itself (not by the team's check). */
async function assigneeOf(session: TicketSession, ticketId: string): Promise<string | undefined> {
  const all = JSON.parse(await session.callTool("list_tickets", {})) as Array<{
    id: string;
    assignee: string;
  }>;
  return all.find((ticket) => ticket.id === ticketId)?.assignee;
}
const userIds: Record<string, string> = { "Bob Diaz": "u-bob", "Carol Evans": "u-carol" };

describe("served agents rewarded from the team's system after the run", () => {
  it("reports by run id, and from an outcome callback the run does not wait for; the learner reads them all", async () => {
    let ids = 0;
    const library = createLibraryService({
      store: world.store,
      // Every selected entry shown (no exposure coin): a run either has the lesson (domain tickets) or has nothing.
      exposure: false,
      generateId: () => `run-${++ids}`,
    });
    const replies: ReportOutcomeReply[] = [];
    const expected: Array<{ runId: string; success: boolean }> = [];

    // 1. By run id: the team keeps the run id and reports when it has read its system back.
    for (const domain of ["tickets", "helpdesk"]) {
      const experience = experienceMiddleware({ library, domain });
      for (const [ticketId, person] of requests) {
        const session = await tickets.connectTickets(service.url);
        const agent = createAgent({
          model: model(),
          tools: await session.langChainTools(),
          systemPrompt,
          middleware: [experience],
        });
        const state = await agent.invoke({
          messages: [{ role: "user", content: `Reassign ticket ${ticketId} to ${person}.` }],
        });
        const runId = experience.runId(state);
        expect(runId).toMatch(/^run-\d+$/);
        // Nothing is reported when the run ends: the team has not said how it went.
        expect((await world.store.getSelection(runId!))?.outcome).toBeNull();
        const success = (await assigneeOf(session, ticketId)) === userIds[person];
        const outcome = await tickets.reassignedOutcome(session, ticketId, person);
        expect(outcome.success).toBe(success);
        const reply = await experience.reportOutcome(runId, outcome);
        replies.push(reply!);
        expect(reply).toMatchObject({ selectionId: runId, success, reward: success ? 1 : 0, domain });
        expected.push({ runId: runId!, success });
        await session.close();
      }
    }
    // The lesson is what makes the sim's agent look the id up: with it more runs leave the ticket right.
    const successes = (runs: typeof expected) => runs.filter((run) => run.success).length;
    expect(successes(expected.slice(0, requests.length))).toBeGreaterThan(
      successes(expected.slice(requests.length)),
    );

    // 2. The `outcome` callback: started when the run ends, not awaited by it; here it waits for the test to let it
    // read the service, so a run that waited for it would never return.
    const sessions = new Map<string, TicketSession>();
    let letOutcomesRun = () => {};
    const outcomesMayRun = new Promise<void>((resolve) => {
      letOutcomesRun = resolve;
    });
    const callbackRuns: string[] = [];
    const experience = experienceMiddleware({
      library,
      domain: "tickets",
      onReport: (reply) => replies.push(reply),
      outcome: async ({ task, runId, finalText }) => {
        await outcomesMayRun;
        const [, ticketId, person] = /^Reassign ticket (T-\d+) to (.+)\.$/.exec(task)!;
        expect(finalText).toContain("\\boxed{done}");
        callbackRuns.push(runId);
        return tickets.reassignedOutcome(sessions.get(task)!, ticketId!, person!);
      },
    });
    for (const [ticketId, person] of requests) {
      const session = await tickets.connectTickets(service.url);
      const task = `Reassign ticket ${ticketId} to ${person}.`;
      sessions.set(task, session);
      const agent = createAgent({
        model: model(),
        tools: await session.langChainTools(),
        systemPrompt,
        middleware: [experience],
      });
      const state = await agent.invoke({ messages: [{ role: "user", content: task }] });
      const success = (await assigneeOf(session, ticketId)) === userIds[person];
      expected.push({ runId: experience.runId(state)!, success });
    }
    expect(callbackRuns).toEqual([]);
    letOutcomesRun();
    await experience.settled();
    expect(callbackRuns).toEqual(expected.slice(-requests.length).map((run) => run.runId));
    for (const session of sessions.values()) await session.close();

    // Every outcome tied to its run: the reward the team computed, the run's own messages (tool calls included).
    // The callbacks' reports travel at once, so their replies arrive in any order: one reply per run, none twice.
    const byRunId = (ids: string[]) => [...ids].sort();
    expect(byRunId(replies.map((reply) => reply.selectionId))).toEqual(
      byRunId(expected.map((run) => run.runId)),
    );
    for (const run of expected) {
      const stored = (await world.store.getSelection(run.runId))!;
      expect(stored.outcome).toMatchObject({ reward: run.success ? 1 : 0, success: run.success });
      const trajectory = stored.outcome!.trajectory as Array<{ role: string; toolCalls?: unknown[] }>;
      expect(trajectory[0]).toMatchObject({ role: "human" });
      expect(trajectory.some((message) => (message.toolCalls?.length ?? 0) > 0)).toBe(true);
    }
    // A report by id of a run already reported gets its reply again and sends nothing.
    const again = await experience.reportOutcome(expected.at(-1)!.runId, { success: false });
    expect(again).toMatchObject({ selectionId: expected.at(-1)!.runId });
    expect(await world.store.countOutcomes("tickets")).toMatchObject({ reported: 2 * requests.length });

    // The domain's learner, as `online --learner` runs it over the same database, reads every one of them.
    const learnerStore = await createStore(db);
    try {
      const result = await runOnlineLearnerService({
        store: learnerStore,
        modelsConfig: simModelsConfig,
        env: { ...process.env, SIM_PORT: String(world.sim.port) },
        domain: "tickets",
        runId: "state-reward-learner",
        settings: { trigger: { batchSize: 100, window: 100, dropBelow: 0, cooldown: 100 } },
        seed: 7,
        pollMs: 20,
        settleMs: 0,
        maxOutcomes: 2 * requests.length,
        log: () => {},
      });
      expect(result.observed).toBe(2 * requests.length);
    } finally {
      await learnerStore.close();
    }
  }, 180_000);

  it("the docs' example runs as written: the agent works in the service, the team's check is reported", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(exampleDir, "served-tickets-agent.mjs"), "T-2", "Bob Diaz"],
      { env: { ...process.env, TFGRPO_DB: db, SIM_PORT: String(world.sim.port) }, timeout: 60_000 },
    );
    const printed = JSON.parse(stdout) as {
      runId: string;
      outcome: { success: boolean; feedback: string };
      reply: ReportOutcomeReply;
    };
    expect(printed.reply).toMatchObject({
      selectionId: printed.runId,
      domain: "tickets",
      success: printed.outcome.success,
    });
    expect(printed.outcome.feedback).toMatch(/^T-2 is assigned to u-/);
    const stored = (await world.store.getSelection(printed.runId))!;
    expect(stored.outcome).toMatchObject({
      success: printed.outcome.success,
      feedback: printed.outcome.feedback,
    });
  }, 120_000);
});
