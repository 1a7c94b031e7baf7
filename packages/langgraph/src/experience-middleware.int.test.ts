// LangChain's createAgent with ChatOpenAI over HTTP, pointed at the SIMULATED model server, using a tfgrpo library
// through experienceMiddleware: its own tools, other middleware and streaming keep working; outcomes are reported
// once (a run that throws, once as a failure); under runAgentAttempt the attempt's block and seed are used instead.
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { createLibraryService, type ReportOutcomeReply } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { createSuite, normalizeAnswer } from "@tfgrpo/sim";
import { createAgent, createMiddleware, toolRetryMiddleware } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExperienceHooks } from "./experience-hooks.js";
import { experienceMiddleware, finalText } from "./experience-middleware.js";

const systemPrompt = "You are a careful problem solver. Put the final answer in \\boxed{}.";
const block =
  "# Learned Experiences\nUse these learned experiences to guide your reasoning where they apply:\n" +
  "[G0]. Check the answer by substituting it back.\n[G1]. Simplify fractions fully before boxing the answer.";

describe("experienceMiddleware with a real createAgent against the sim", () => {
  let world: SimLibraryWorld;
  beforeAll(async () => {
    world = await startSimLibraryWorld({
      seed: 11,
      entries: [
        "Check the answer by substituting it back.",
        "Simplify fractions fully before boxing the answer.",
      ],
    });
  });
  afterAll(() => world.close());
  const store = () => world.store;

  const model = (baseURL = world.sim.url) =>
    new ChatOpenAI({ model: "sim-actor", apiKey: "sim", maxRetries: 0, configuration: { baseURL } });
  const tasks = createSuite({ domain: "math", seed: 11, size: 4, split: "train" });
  const rightAnswer = (task: (typeof tasks)[number]) => (text: string) =>
    normalizeAnswer(text.match(/\\boxed\{([^}]*)\}/)?.[1] ?? "") === normalizeAnswer(task.answer!);

  /** The team's own tool (no Python here: it says so, and the simulated policy works the answer out by hand). */
  const ownTool = (calls: string[]) =>
    tool(
      async ({ code }: { code: string }) => {
        calls.push(code);
        return "error: this team's interpreter is switched off";
      },
      {
        name: "code_interpreter",
        description: "Runs Python code and returns what it prints.",
        schema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
      },
    );
  /** Another middleware: sees every model call's system prompt after tfgrpo's (listed after it: inside it). */
  const watcher = (prompts: string[]) =>
    createMiddleware({
      name: "Watcher",
      wrapModelCall: async (request, handler) => {
        prompts.push(request.systemMessage.text);
        return handler(request);
      },
    });

  it("shows one selection on every model call of a run, with the agent's own tools and another middleware", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const replies: unknown[] = [];
    const calls: string[] = [];
    const prompts: string[] = [];
    const task = tasks[0]!;
    const agent = createAgent({
      model: model(),
      tools: [ownTool(calls)],
      systemPrompt,
      middleware: [
        experienceMiddleware({
          library,
          domain: "math",
          reward: (run) => rightAnswer(task)(run.finalText),
          onReport: (reply) => replies.push(reply),
        }),
        watcher(prompts),
      ],
    });
    // A plain { role, content } message, as LangChain accepts it.
    const state = await agent.invoke({ messages: [{ role: "user", content: task.question }] });
    expect(calls.length).toBeGreaterThan(0);
    expect(prompts.length).toBeGreaterThanOrEqual(2);
    for (const prompt of prompts) expect(prompt).toBe(`${systemPrompt}\n\n${block}`);
    expect(replies).toHaveLength(1);
    const selectionId = (state as { tfgrpoSelection: { selectionId: string } }).tfgrpoSelection.selectionId;
    const stored = (await store().getSelection(selectionId))!.outcome!;
    expect(stored.success).toBe(rightAnswer(task)(finalText(state.messages)));
    expect(replies[0]).toMatchObject({ selectionId, creditedIds: ["G0", "G1"] });
    // The trajectory holds the tool calls the agent made.
    const trajectory = stored.trajectory as Array<{ role: string; toolCalls?: Array<{ name: string }> }>;
    expect(trajectory.some((m) => m.toolCalls?.[0]?.name === "code_interpreter")).toBe(true);
  });

  it("reports a streamed run once, when the stream ends", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const task = tasks[1]!;
    const agent = createAgent({
      model: model(),
      tools: [ownTool([])],
      systemPrompt,
      checkpointer: new MemorySaver(),
      middleware: [
        experienceMiddleware({ library, domain: "math", reward: (run) => rightAnswer(task)(run.finalText) }),
      ],
    });
    let chunks = 0;
    const stream = await agent.stream(
      { messages: [{ role: "user", content: task.question }] },
      { streamMode: "messages", configurable: { thread_id: "streamed" } },
    );
    for await (const _chunk of stream) chunks++;
    expect(chunks).toBeGreaterThan(1);
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(1);
    expect(after.reported - before.reported).toBe(1);
  });

  it("reports a run whose model call throws as one failure, never two", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 1 });
    // Nothing listens on port 9: the model call fails at once.
    const agent = createAgent({
      model: model("http://127.0.0.1:9/v1"),
      systemPrompt,
      middleware: [experience],
    });
    await expect(
      agent.invoke({ messages: [{ role: "user", content: tasks[2]!.question }] }),
    ).rejects.toThrow();
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(1);
    expect(after.reported - before.reported).toBe(1);
    const [outcome] = await store().listOutcomes({ domain: "math", latest: 1 });
    expect(outcome).toMatchObject({ success: false, reward: 0 });
  });

  /** The library's replies, and a promise of the first: a report made off the run's path (an abort) is awaited. */
  const reportsOf = () => {
    const replies: ReportOutcomeReply[] = [];
    let first!: (reply: ReportOutcomeReply) => void;
    const firstReply = new Promise<ReportOutcomeReply>((resolve) => {
      first = resolve;
    });
    return {
      replies,
      firstReply,
      onReport: (reply: ReportOutcomeReply) => {
        replies.push(reply);
        first(reply);
      },
    };
  };
  const feedbackOf = async (selectionId: string) =>
    (await store().getSelection(selectionId))?.outcome?.feedback ?? "";

  it("reports a run aborted while a tool runs as one failure, with the reason", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const { replies, firstReply, onReport } = reportsOf();
    const controller = new AbortController();
    const stopping = tool(
      async () => {
        controller.abort(new Error("the user closed the tab"));
        return "stopped";
      },
      {
        name: "code_interpreter",
        description: "Runs Python code and returns what it prints.",
        schema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
      },
    );
    const agent = createAgent({
      model: model(),
      tools: [stopping],
      systemPrompt,
      middleware: [experienceMiddleware({ library, domain: "math", reward: () => 1, onReport })],
    });
    await expect(
      agent.invoke(
        { messages: [{ role: "user", content: tasks[0]!.question }] },
        { signal: controller.signal },
      ),
    ).rejects.toThrow();
    const reply = await firstReply;
    expect(reply).toMatchObject({ success: false, reward: 0 });
    expect(await feedbackOf(reply.selectionId)).toMatch(/aborted \(the user closed the tab\)/);
    expect(replies).toHaveLength(1);
  });

  it("inside experience.run, a run a tool's error ends is one failure with its message; a report by hand after it sends nothing", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const { replies, onReport } = reportsOf();
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 1, onReport });
    const crashing = tool(
      async () => {
        throw new Error("the team's interpreter crashed");
      },
      {
        name: "code_interpreter",
        description: "Runs Python code and returns what it prints.",
        schema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
      },
    );
    const checkpointer = new MemorySaver();
    const agent = createAgent({
      model: model(),
      tools: [crashing],
      systemPrompt,
      checkpointer,
      // The team's retry middleware gives up by raising: the tool's error ends the run, outside any model call.
      middleware: [experience, toolRetryMiddleware({ maxRetries: 0, onFailure: "raise" })],
    });
    const config = { configurable: { thread_id: "crashing-tool" } };
    await expect(
      experience.run(() =>
        agent.invoke({ messages: [{ role: "user", content: tasks[0]!.question }] }, config),
      ),
    ).rejects.toThrow(/interpreter crashed/);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ success: false, reward: 0 });
    expect(await feedbackOf(replies[0]!.selectionId)).toMatch(
      /the run failed: the team's interpreter crashed/,
    );
    // The team reports the run too, from its checkpoint: it gets the failure's reply, and nothing is sent.
    const { values } = await agent.graph.getState(config);
    expect(await experience.reportOutcome(values as Record<string, unknown>, { success: true })).toEqual(
      replies[0],
    );
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(1);
    expect(after.reported - before.reported).toBe(1);
  });

  it("inside experience.run, a run another middleware's hook ends is one failure", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const { replies, onReport } = reportsOf();
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 1, onReport });
    const broken = createMiddleware({
      name: "Broken",
      afterModel: async () => {
        throw new Error("the guardrail service is down");
      },
    });
    const agent = createAgent({ model: model(), systemPrompt, middleware: [experience, broken] });
    await expect(
      experience.run(() => agent.invoke({ messages: [{ role: "user", content: tasks[1]!.question }] })),
    ).rejects.toThrow(/guardrail/);
    expect(replies).toHaveLength(1);
    expect(await feedbackOf(replies[0]!.selectionId)).toMatch(/guardrail service is down/);
  });

  it("reports by hand when no reward is given, once", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const experience = experienceMiddleware({ library, domain: "math" });
    const agent = createAgent({ model: model(), systemPrompt, middleware: [experience] });
    const state = await agent.invoke({ messages: [{ role: "user", content: tasks[3]!.question }] });
    const first = await experience.reportOutcome(state, { success: true });
    const second = await experience.reportOutcome(state, { success: false });
    expect(second).toEqual(first);
    expect(first).toMatchObject({ success: true, reward: 1 });
  });

  it("takes an offline attempt's block and seed from tfgrpo and reports nothing", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const prompts: string[] = [];
    const agent = createAgent({
      model: model(),
      systemPrompt,
      middleware: [experienceMiddleware({ library, domain: "math", reward: () => 1 }), watcher(prompts)],
    });
    const attempt = makeAgentAttempt();
    await runAgentAttempt(attempt, () =>
      agent.invoke({ messages: [{ role: "user", content: tasks[0]!.question }] }),
    );
    expect(attempt.used).toBe(true);
    expect(prompts).toEqual([`${systemPrompt}\n\n[G7]. An offline lesson.`]);
    expect(await store().countOutcomes("math")).toEqual(before);
  });

  it("the StateGraph hooks accept plain { role, content } messages", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const hooks = createExperienceHooks({ library, domain: "math", systemPrompt });
    const state = { messages: [{ role: "user", content: tasks[0]!.question }] };
    const messages = await hooks.prompt(state);
    expect(messages).toHaveLength(2);
    const reply = await hooks.reportOutcome(
      { messages: [...state.messages, { role: "assistant", content: "\\boxed{1}" }] },
      { success: false },
    );
    expect(reply.success).toBe(false);
  });
});
