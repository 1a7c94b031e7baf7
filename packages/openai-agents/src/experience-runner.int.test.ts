// The OpenAI Agents SDK (@openai/agents 0.14.3, the last release for Node 20): an Agent whose model is
// OpenAIChatCompletionsModel over an `openai` client pointed at the SIMULATED model server, run through tfgrpo's
// experienceRunner: the block in the instructions of every model call of a run, the agent's own tool, reports once
// (streamed too), a failed run once, a run paused for a tool approval reported when it ends, outcomes after the run;
// offline attempts take tfgrpo's block and seed and report nothing.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { createLibraryService, type ReportOutcomeReply } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { createSuite, normalizeAnswer } from "@tfgrpo/sim";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { experienceRunner } from "./experience-runner.js";

setTracingDisabled(true);

const instructions = "You are a careful problem solver. Put the final answer in \\boxed{}.";
const block =
  "# Learned Experiences\nUse these learned experiences to guide your reasoning where they apply:\n" +
  "[G0]. Check the answer by substituting it back.";

/** What the model server was sent: each request's system prompt and seed. */
interface SentRequest {
  system: string;
  seed: unknown;
}

let world: SimLibraryWorld;
beforeAll(async () => {
  world = await startSimLibraryWorld({ seed: 11, entries: ["Check the answer by substituting it back."] });
});
afterAll(() => world?.close());

const tasks = createSuite({ domain: "math", seed: 11, size: 4, split: "train" });
const boxed = (text: string) => normalizeAnswer(text.match(/\\boxed\{([^}]*)\}/)?.[1] ?? "");

function agentWith(
  sent: SentRequest[],
  options: { url?: string; approval?: boolean; calls?: string[] } = {},
) {
  const client = new OpenAI({
    baseURL: options.url ?? world.sim.url,
    apiKey: "sim",
    maxRetries: 0,
    fetch: async (url, init) => {
      const body = JSON.parse(String(init?.body ?? "{}")) as {
        messages?: Array<{ role: string; content: string }>;
        seed?: unknown;
      };
      const system = body.messages?.find((message) => message.role === "system");
      sent.push({ system: system?.content ?? "", seed: body.seed });
      return fetch(url, init);
    },
  });
  return new Agent({
    name: "solver",
    instructions,
    model: new OpenAIChatCompletionsModel(client, "sim-actor"),
    tools: [
      tool({
        name: "code_interpreter",
        description: "Runs Python code and returns what it prints.",
        parameters: z.object({ code: z.string() }),
        needsApproval: options.approval ?? false,
        execute: ({ code }) => {
          options.calls?.push(code);
          return "error: this team's interpreter is switched off";
        },
      }),
    ],
  });
}

/** An experienceRunner over the world's library (exposure off: every run sees G0), with the replies of its reports. */
function reportingRunner(reward: NonNullable<Parameters<typeof experienceRunner>[0]["reward"]>) {
  const replies: ReportOutcomeReply[] = [];
  const experience = experienceRunner({
    run,
    library: createLibraryService({ store: world.store, exposure: false }),
    domain: "math",
    reward,
    onReport: (reply) => replies.push(reply),
  });
  return { experience, replies };
}

describe("experienceRunner with a real @openai/agents Agent against the sim", () => {
  it("shows one selection on every model call, with the agent's own tool, and reports once", async () => {
    const task = tasks[0]!;
    const { experience, replies } = reportingRunner((r) => boxed(r.text) === normalizeAnswer(task.answer!));
    const sent: SentRequest[] = [];
    const calls: string[] = [];
    const result = await experience.run(agentWith(sent, { calls }), task.question);
    expect(calls.length).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const request of sent) expect(request.system).toBe(`${instructions}\n\n${block}`);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      selectionId: experience.runId(result),
      success: boxed(String(result.finalOutput)) === normalizeAnswer(task.answer!),
      creditedIds: ["G0"],
    });
    const stored = (await world.store.getSelection(replies[0]!.selectionId))!.outcome!;
    const trajectory = stored.trajectory as Array<{ role: string; toolCalls?: unknown[] }>;
    expect(trajectory[0]).toEqual({ role: "user", content: task.question });
    expect(trajectory.some((message) => message.role === "tool")).toBe(true);
    expect(trajectory.some((message) => (message.toolCalls?.length ?? 0) > 0)).toBe(true);
    // A second report of the same run sends nothing and gets the first reply.
    expect(await experience.reportOutcome(result, { success: true })).toEqual(replies[0]);
  });

  it("gives two runs of the same task at the same time a selection each; streams one and reports it once", async () => {
    const before = await world.store.countOutcomes("math");
    const { experience, replies } = reportingRunner(() => 1);
    const agent = agentWith([]);
    await Promise.all([experience.run(agent, tasks[1]!.question), experience.run(agent, tasks[1]!.question)]);
    expect(new Set(replies.map((reply) => reply.selectionId)).size).toBe(2);

    const sent: SentRequest[] = [];
    const stream = await experience.run(agentWith(sent), tasks[2]!.question, { stream: true });
    let events = 0;
    for await (const _event of stream.toStream()) events++;
    await stream.completed;
    await experience.settled();
    expect(events).toBeGreaterThan(1);
    for (const request of sent) expect(request.system).toBe(`${instructions}\n\n${block}`);
    expect(replies).toHaveLength(3);
    const after = await world.store.countOutcomes("math");
    expect(after.served - before.served).toBe(3);
    expect(after.reported - before.reported).toBe(3);
  });

  it("reports a run whose model is unreachable as one failure, and the error goes on", async () => {
    const { experience, replies } = reportingRunner(() => 1);
    await expect(
      experience.run(agentWith([], { url: "http://127.0.0.1:9/v1" }), tasks[0]!.question),
    ).rejects.toThrow();
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ success: false, reward: 0 });
    const stored = await world.store.getSelection(replies[0]!.selectionId);
    expect(stored?.outcome?.feedback).toMatch(/^the run failed: /);
  });

  it("reports a run paused for a tool approval only when it ends, resumed with the same selection", async () => {
    const { experience, replies } = reportingRunner(() => 0.5);
    const sent: SentRequest[] = [];
    const calls: string[] = [];
    const agent = agentWith(sent, { approval: true, calls });
    const paused = await experience.run(agent, tasks[3]!.question);
    expect(paused.interruptions?.length).toBeGreaterThan(0);
    // Approve every call the run asks for (a few rounds: the model may call the tool again), each resumed run
    // still unreported while paused.
    let resumed = paused;
    for (let round = 0; round < 6 && (resumed.interruptions?.length ?? 0) > 0; round++) {
      expect(replies).toEqual([]);
      for (const interruption of resumed.interruptions!) resumed.state.approve(interruption);
      resumed = await experience.run(agent, resumed.state);
    }
    expect(resumed.interruptions ?? []).toEqual([]);
    expect(calls.length).toBeGreaterThan(0);
    expect(replies).toHaveLength(1);
    expect(experience.runId(resumed)).toBe(experience.runId(paused));
    expect(replies[0]!.selectionId).toBe(experience.runId(paused));
    for (const request of sent) expect(request.system).toBe(`${instructions}\n\n${block}`);
  });

  it("reports an outcome computed after the run (not awaited by it), and one by run id", async () => {
    const library = createLibraryService({ store: world.store, exposure: false });
    const replies: ReportOutcomeReply[] = [];
    let letOutcomeRun = () => {};
    const outcomeMayRun = new Promise<void>((resolve) => {
      letOutcomeRun = resolve;
    });
    const experience = experienceRunner({
      run,
      library,
      domain: "math",
      onReport: (reply) => replies.push(reply),
      outcome: async ({ runId, messages }) => {
        await outcomeMayRun;
        return { reward: 0.75, feedback: `checked ${runId} after ${messages.length} messages` };
      },
    });
    const result = await experience.run(agentWith([]), tasks[1]!.question);
    expect(replies).toEqual([]);
    letOutcomeRun();
    await experience.settled();
    expect(replies).toEqual([
      expect.objectContaining({ selectionId: experience.runId(result), reward: 0.75 }),
    ]);

    const byHand = experienceRunner({ run, library, domain: "math" });
    const later = await byHand.run(agentWith([]), tasks[2]!.question);
    const runId = byHand.runId(later);
    expect((await world.store.getSelection(runId!))!.outcome).toBeNull();
    expect(await byHand.reportOutcome(runId, { success: true })).toMatchObject({ selectionId: runId });
    const stored = (await world.store.getSelection(runId!))!.outcome!;
    expect((stored.trajectory as unknown[]).length).toBeGreaterThan(1);
  });

  it("takes an offline attempt's block and seed from tfgrpo and reports nothing", async () => {
    const library = createLibraryService({ store: world.store, exposure: false });
    const before = await world.store.countOutcomes("math");
    const experience = experienceRunner({ run, library, domain: "math", reward: () => 1 });
    const sent: SentRequest[] = [];
    const attempt = makeAgentAttempt({ seed: 31 });
    const result = await runAgentAttempt(attempt, () => experience.run(agentWith(sent), tasks[3]!.question));
    expect(attempt.used).toBe(true);
    expect(attempt.systemPrompt).toBe(`${instructions}\n\n[G7]. An offline lesson.`);
    expect(sent.map((request) => request)).toEqual(
      sent.map(() => ({ system: `${instructions}\n\n[G7]. An offline lesson.`, seed: 31 })),
    );
    expect(sent.length).toBeGreaterThan(0);
    expect(experience.runId(result)).toBeNull();
    expect(await world.store.countOutcomes("math")).toEqual(before);
  });
});
