// The Vercel AI SDK (ai@6): a ToolLoopAgent over @ai-sdk/openai-compatible pointed at the SIMULATED model server,
// its model wrapped with tfgrpo's middleware: the block on every call of a run, the agent's own tool, streaming,
// reports at onFinish (once), a failed run once; offline attempts take tfgrpo's block and seed and report nothing.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { createLibraryService, type ReportOutcomeReply } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { createSuite, normalizeAnswer } from "@tfgrpo/sim";
import {
  jsonSchema,
  type LanguageModelMiddleware,
  stepCountIs,
  ToolLoopAgent,
  tool,
  wrapLanguageModel,
} from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experienceMiddleware } from "./experience-middleware.js";

const instructions = "You are a careful problem solver. Put the final answer in \\boxed{}.";
const block =
  "# Learned Experiences\nUse these learned experiences to guide your reasoning where they apply:\n" +
  "[G0]. Check the answer by substituting it back.";

describe("the AI SDK middleware with a real ToolLoopAgent against the sim", () => {
  let world: SimLibraryWorld;
  beforeAll(async () => {
    world = await startSimLibraryWorld({ seed: 11, entries: ["Check the answer by substituting it back."] });
  });
  afterAll(() => world.close());
  const store = () => world.store;
  const tasks = createSuite({ domain: "math", seed: 11, size: 4, split: "train" });
  const provider = (baseURL: string) => createOpenAICompatible({ name: "sim", baseURL, apiKey: "sim" });
  const boxed = (text: string) => normalizeAnswer(text.match(/\\boxed\{([^}]*)\}/)?.[1] ?? "");
  /** Another middleware, inside tfgrpo's: sees each call's system prompt. */
  const watcher = (prompts: string[]): LanguageModelMiddleware => ({
    specificationVersion: "v3",
    transformParams: async ({ params }) => {
      const system = params.prompt.find((m) => m.role === "system");
      prompts.push(system?.role === "system" ? system.content : "");
      return params;
    },
  });
  const codeTool = (calls: string[]) =>
    tool({
      description: "Runs Python code and returns what it prints.",
      inputSchema: jsonSchema<{ code: string }>({
        type: "object",
        properties: { code: { type: "string" } },
        required: ["code"],
      }),
      execute: async ({ code }) => {
        calls.push(code);
        return "error: this team's interpreter is switched off";
      },
    });
  const agentWith = (
    experience: ReturnType<typeof experienceMiddleware>,
    prompts: string[],
    calls: string[],
    url = world.sim.url,
  ) =>
    new ToolLoopAgent({
      model: wrapLanguageModel({
        model: provider(url).chatModel("sim-actor"),
        middleware: [experience, watcher(prompts)],
      }),
      instructions,
      tools: { code_interpreter: codeTool(calls) },
      stopWhen: stepCountIs(6),
      onFinish: experience.onFinish,
    });

  it("shows one selection on every model call, with the agent's own tool, and reports at onFinish once", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const task = tasks[0]!;
    const replies: unknown[] = [];
    const experience = experienceMiddleware({
      library,
      domain: "math",
      reward: (run) => boxed(run.text) === normalizeAnswer(task.answer!),
      onReport: (reply) => replies.push(reply),
    });
    const prompts: string[] = [];
    const calls: string[] = [];
    const result = await agentWith(experience, prompts, calls).generate({ prompt: task.question });
    expect(calls.length).toBeGreaterThan(0);
    expect(prompts.length).toBeGreaterThanOrEqual(2);
    for (const prompt of prompts) expect(prompt).toBe(`${instructions}\n\n${block}`);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      success: boxed(result.text) === normalizeAnswer(task.answer!),
      creditedIds: ["G0"],
    });
    // A second report of the same run sends nothing and gets the first reply.
    expect(await experience.reportOutcome(result, { success: true })).toEqual(replies[0]);
  });

  it("gives two runs of the same task at the same time a selection each, each reported once at its onFinish", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const replies: ReportOutcomeReply[] = [];
    const experience = experienceMiddleware({
      library,
      domain: "math",
      reward: () => 1,
      onReport: (reply) => replies.push(reply),
    });
    const calls: string[] = [];
    const agent = agentWith(experience, [], calls);
    const [first, second] = await Promise.all([
      agent.generate({ prompt: tasks[0]!.question }),
      agent.generate({ prompt: tasks[0]!.question }),
    ]);
    // Both runs took several steps (the tool), and each step stayed in its own run.
    expect(first.steps.length).toBeGreaterThan(1);
    expect(second.steps.length).toBeGreaterThan(1);
    expect(replies).toHaveLength(2);
    expect(new Set(replies.map((reply) => reply.selectionId)).size).toBe(2);
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(2);
    expect(after.reported - before.reported).toBe(2);
    // The documented way to report each run by hand: its own result (here: already reported, so its first reply).
    expect(await experience.reportOutcome(second, { success: false })).toMatchObject({ reward: 1 });
  });

  it("streams two runs of the same task at once, each a run of its own through its tool steps", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 0.5 });
    const agent = agentWith(experience, [], []);
    const streamed = async () => {
      const stream = await agent.stream({ prompt: tasks[0]!.question });
      for await (const _delta of stream.textStream);
      return (await stream.steps).length;
    };
    const steps = await Promise.all([streamed(), streamed()]);
    expect(Math.min(...steps)).toBeGreaterThan(1);
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(2);
    expect(after.reported - before.reported).toBe(2);
  });

  it("inside experience.run, reports a run that throws outside a model call as one failure", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const replies: ReportOutcomeReply[] = [];
    const experience = experienceMiddleware({
      library,
      domain: "math",
      onReport: (reply) => replies.push(reply),
    });
    await expect(
      experience.run(async () => {
        await agentWith(experience, [], []).generate({ prompt: tasks[1]!.question });
        throw new Error("the team's answer check crashed");
      }),
    ).rejects.toThrow(/answer check crashed/);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ success: false, reward: 0 });
    const stored = await store().getSelection(replies[0]!.selectionId);
    expect(stored?.outcome?.feedback).toBe("the run failed: the team's answer check crashed");
  });

  it("streams, and reports the streamed run once", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 0.5 });
    const stream = await agentWith(experience, [], []).stream({ prompt: tasks[1]!.question });
    let deltas = 0;
    for await (const _delta of stream.textStream) deltas++;
    await stream.response;
    expect(deltas).toBeGreaterThan(1);
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(1);
    expect(after.reported - before.reported).toBe(1);
  });

  it("reports a run whose model fails for good as one failure", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 1, maxRetries: 0 });
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({
        model: provider("http://127.0.0.1:9/v1").chatModel("sim-actor"),
        middleware: experience,
      }),
      instructions,
      maxRetries: 0,
      onFinish: experience.onFinish,
    });
    await expect(agent.generate({ prompt: tasks[2]!.question })).rejects.toThrow();
    const after = await store().countOutcomes("math");
    expect(after.served - before.served).toBe(1);
    expect(after.reported - before.reported).toBe(1);
    const [outcome] = await store().listOutcomes({ domain: "math", latest: 1 });
    expect(outcome).toMatchObject({ success: false });
  });

  it("takes an offline attempt's block and seed from tfgrpo and reports nothing", async () => {
    const library = createLibraryService({ store: store(), exposure: false });
    const before = await store().countOutcomes("math");
    const experience = experienceMiddleware({ library, domain: "math", reward: () => 1 });
    const prompts: string[] = [];
    const attempt = makeAgentAttempt();
    await runAgentAttempt(attempt, () =>
      agentWith(experience, prompts, []).generate({ prompt: tasks[3]!.question }),
    );
    expect(attempt.used).toBe(true);
    expect(new Set(prompts)).toEqual(new Set([`${instructions}\n\n[G7]. An offline lesson.`]));
    expect(await store().countOutcomes("math")).toEqual(before);
  });
});
