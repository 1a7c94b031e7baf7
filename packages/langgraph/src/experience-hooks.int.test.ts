// A plain LangGraph.js agent — createReactAgent with ChatOpenAI over HTTP, pointed at the SIMULATED model server —
// using a tfgrpo library through the hooks: experiences in its system prompt, outcomes reported and credited.
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { createLibraryService } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { createSuite, normalizeAnswer } from "@tfgrpo/sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExperienceHooks } from "./experience-hooks.js";
import { LibraryBaseStore } from "./library-base-store.js";

const systemPrompt = "You are a careful problem solver. Put the final answer in \\boxed{}.";

describe("@tfgrpo/langgraph with a real createReactAgent against the sim", () => {
  let world: SimLibraryWorld;
  beforeAll(async () => {
    world = await startSimLibraryWorld({
      seed: 11,
      entries: [
        "Check the answer by substituting it back.",
        "Simplify fractions fully before boxing the answer.",
        { text: "Count small cases by hand before generalising.", status: "candidate" },
      ],
    });
  });
  afterAll(() => world.close());
  const store = () => world.store;
  const sim = () => world.sim;

  const llm = () =>
    new ChatOpenAI({
      model: "sim-actor",
      apiKey: "sim",
      temperature: 0,
      configuration: { baseURL: sim().url },
    });

  it("injects the selection into the system prompt of every turn and reports the outcome once", async () => {
    // Every selected entry shown (no per-request coin for uncertain ones): this test follows the hooks, not credit.
    const library = createLibraryService({ store: store(), exposure: false });
    const hooks = createExperienceHooks({ library, domain: "math", systemPrompt });
    // A tool the agent may call, so a run can take several model turns.
    const calculator = tool(async ({ expression }: { expression: string }) => String(expression.length), {
      name: "calculator",
      description: "Evaluates an arithmetic expression.",
      schema: {
        type: "object",
        properties: { expression: { type: "string" } },
        required: ["expression"],
      },
    });
    const prompts: string[] = [];
    const agent = createReactAgent({
      llm: llm(),
      tools: [calculator],
      prompt: async (state, config) => {
        const messages = await hooks.prompt(state, config);
        prompts.push((messages[0] as { content: string }).content);
        return messages;
      },
    });
    const tasks = createSuite({ domain: "math", seed: 11, size: 3, split: "train" });
    let cachedInputTokens = 0;
    for (const [index, task] of tasks.entries()) {
      const config = { configurable: { thread_id: `run-${index}` } };
      const state = await agent.invoke({ messages: [new HumanMessage(task.question)] }, config);
      const selection = await hooks.selection(state, config);
      const last = state.messages.at(-1)!;
      const correct = normalizeAnswer(last.text) === normalizeAnswer(task.answer!);
      const usage = (last as { usage_metadata?: { input_token_details?: { cache_read?: number } } })
        .usage_metadata;
      cachedInputTokens += usage?.input_token_details?.cache_read ?? 0;
      const reply = await hooks.reportOutcome(
        state,
        { success: correct, feedback: correct ? "right" : "wrong" },
        config,
      );
      expect(reply).toMatchObject({ selectionId: selection.selectionId, success: correct, version: 1 });
      expect(reply.creditedIds).toEqual(["G0", "G1", "G2"]);
      // Reported once: the run's selection is forgotten, a second report has nothing to report.
      await expect(hooks.reportOutcome(state, { success: true }, config)).rejects.toThrow(
        /no experiences were served/,
      );
      const stored = (await store().getSelection(selection.selectionId))!.outcome!;
      expect((stored.trajectory as Array<{ role: string }>)[0]).toMatchObject({
        role: "human",
        content: task.question,
      });
    }
    // Every model turn of every run had the agent's prompt followed by the same experience block.
    expect(prompts.length).toBeGreaterThanOrEqual(tasks.length);
    for (const prompt of prompts) {
      expect(prompt).toBe(
        `${systemPrompt}\n\n# Learned Experiences\nUse these learned experiences to guide your reasoning where they apply:\n` +
          "[G0]. Check the answer by substituting it back.\n[G1]. Simplify fractions fully before boxing the answer.\n" +
          "[G2]. Count small cases by hand before generalising.",
      );
    }
    // The stable prefix is what the provider caches: later runs read the system prompt from the (simulated) cache.
    expect(cachedInputTokens).toBeGreaterThan(0);
    const head = (await store().getHead("math"))!;
    expect(head.experiences.map((e) => e.stats.shown)).toEqual([3, 3, 3]);
    expect(await store().countOutcomes("math")).toMatchObject({ served: 3, reported: 3 });
  });

  it("works in a custom StateGraph node too", async () => {
    // No per-request coin: with k = 1 the one entry is the exploration slot's candidate, which a coin may withhold.
    const library = createLibraryService({ store: store(), exposure: false });
    const hooks = createExperienceHooks({ library, domain: "math", systemPrompt, k: 1 });
    const model = llm();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("agent", async (state, config) => ({
        messages: [await model.invoke(await hooks.prompt(state, config))],
      }))
      .addEdge("__start__", "agent")
      .compile();
    const [task] = createSuite({ domain: "math", seed: 11, size: 1, split: "val" });
    const state = await graph.invoke({ messages: [new HumanMessage(task!.question)] });
    const selection = await hooks.selection(state);
    // k = 1 keeps the exploration slot: the candidate.
    expect(selection.entries.map((e) => e.id)).toEqual(["G2"]);
    const reply = await hooks.reportOutcome(state, { reward: 0.25 });
    expect(reply).toMatchObject({ reward: 0.25, success: false, creditedIds: ["G2"] });
  });

  it("exposes the library as a read-only BaseStore namespace with search", async () => {
    const library = createLibraryService({ store: store() });
    const base = new LibraryBaseStore({ library, domains: ["math", "web"] });
    expect(await base.listNamespaces()).toEqual([
      ["experiences", "math"],
      ["experiences", "web"],
    ]);
    const item = await base.get(["experiences", "math"], "G1");
    expect(item?.value).toMatchObject({
      text: "Simplify fractions fully before boxing the answer.",
      status: "active",
    });
    expect(await base.get(["experiences", "math"], "G9")).toBeNull();
    const hits = await base.search(["experiences", "math"], { query: "simplify the fractions", limit: 2 });
    expect(hits.map((hit) => hit.key)).toEqual(["G1", "G0"]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score!);
    expect(
      (await base.search(["experiences"], { filter: { status: "candidate" } })).map((h) => h.key),
    ).toEqual(["G2"]);
    expect(
      (await base.search(["experiences", "math"], { filter: { shown: { $gte: 3 } } })).length,
    ).toBeGreaterThan(0);
    // A domain without a library is an empty namespace.
    expect(await base.search(["experiences", "web"])).toEqual([]);
    await expect(base.put(["experiences", "math"], "G5", { text: "new" })).rejects.toThrow(/read-only/);
    await expect(base.delete(["experiences", "math"], "G1")).rejects.toThrow(/read-only/);
    await expect(base.search(["experiences"], { filter: { shown: { $near: 1 } } })).rejects.toThrow(
      /unknown operator/,
    );
    // With an embedder, a query ranks by embedding similarity (the sim's embeddings over HTTP).
    const embedded = new LibraryBaseStore({
      library,
      domains: ["math"],
      embed: async (texts) => {
        const response = await fetch(`${sim().url}/embeddings`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "sim-embedder", input: texts }),
        });
        return ((await response.json()) as { data: { embedding: number[] }[] }).data.map((d) => d.embedding);
      },
    });
    const ranked = await embedded.search(["experiences", "math"], {
      query: "substitute the answer back to check it",
    });
    expect(ranked[0]!.key).toBe("G0");
  });
});
