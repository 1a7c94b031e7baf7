// Served online (no learn): a createAgent agent with experienceMiddleware, ChatOpenAI pointed at the SIMULATED model
// server, reports to the library in a database; the domain's learner (`online --learner`'s service, in process)
// reads every one of those reports; each credits the entries it showed; a run that throws is reported once.
import path from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createLibraryService, type ReportOutcomeReply } from "@tfgrpo/serving";
import { type SimLibraryWorld, startSimLibraryWorld } from "@tfgrpo/serving/testing";
import { createSuite, normalizeAnswer } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOnlineLearnerService } from "../online/online-learner-service.js";
import { simModelsConfig } from "../runtime/start-sim-world.js";

let temporary: TemporaryDirectory;
let world: SimLibraryWorld;
let db: string;
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-served-agent-");
  db = path.join(temporary.path, "tfgrpo.db");
  world = await startSimLibraryWorld({
    seed: 7,
    db,
    entries: [
      "Check the answer by substituting it back.",
      "When counting integers in a range, include both endpoints: range(lo, hi + 1).",
    ],
  });
  process.env.SIM_PORT = String(world.sim.port);
});
afterAll(async () => {
  await world?.close();
  await temporary?.[Symbol.asyncDispose]();
});

describe("a served createAgent agent and the domain's learner", () => {
  it("its reports reach the learner and credit the entries shown; a run that throws is reported once", async () => {
    const library = createLibraryService({ store: world.store });
    const tasks = createSuite({ domain: "math", seed: 7, size: 8, split: "train" });
    const replies: ReportOutcomeReply[] = [];
    const agentFor = (baseURL: string, answer: string) =>
      createAgent({
        model: new ChatOpenAI({
          model: "sim-actor",
          apiKey: "sim",
          maxRetries: 0,
          configuration: { baseURL },
        }),
        systemPrompt: "You are a careful problem solver. Give the final answer as \\boxed{...}.",
        middleware: [
          experienceMiddleware({
            library,
            domain: "math",
            reward: (run) =>
              normalizeAnswer(run.finalText.match(/\\boxed\{([^}]*)\}/)?.[1] ?? "") ===
              normalizeAnswer(answer),
            onReport: (reply) => replies.push(reply),
          }),
        ],
      });
    for (const task of tasks) {
      await agentFor(world.sim.url, task.answer!).invoke({
        messages: [{ role: "user", content: task.question }],
      });
    }
    const failing = agentFor("http://127.0.0.1:9/v1", "0");
    await expect(
      failing.invoke({ messages: [{ role: "user", content: tasks[0]!.question }] }),
    ).rejects.toThrow();
    // Every run reported exactly once (the failed one as a failure), each crediting what its selection showed.
    expect(replies).toHaveLength(tasks.length + 1);
    expect(new Set(replies.map((reply) => reply.selectionId)).size).toBe(tasks.length + 1);
    expect(replies.at(-1)).toMatchObject({ success: false, reward: 0 });
    const shownCount = new Map<string, number>();
    for (const reply of replies) {
      const { selection } = (await world.store.getSelection(reply.selectionId))!;
      expect(reply.creditedIds).toEqual(selection.entryIds);
      for (const id of selection.entryIds) shownCount.set(id, (shownCount.get(id) ?? 0) + 1);
    }
    // The entries shown were credited, in the head's stats, once per report that showed them.
    expect(shownCount.size).toBeGreaterThan(0);
    const head = (await world.store.getHead("math"))!;
    for (const entry of head.experiences) expect(entry.stats.shown).toBe(shownCount.get(entry.id) ?? 0);
    expect(await world.store.countOutcomes("math")).toMatchObject({
      served: tasks.length + 1,
      reported: tasks.length + 1,
    });

    // The domain's learner, as `online --learner` runs it over the same database, reads every one of them.
    const learnerStore = await createStore(db);
    try {
      const result = await runOnlineLearnerService({
        store: learnerStore,
        modelsConfig: simModelsConfig,
        domain: "math",
        runId: "online-learner-test",
        settings: { trigger: { batchSize: 100, window: 100, dropBelow: 0, cooldown: 100 } },
        seed: 7,
        pollMs: 20,
        settleMs: 0,
        maxOutcomes: tasks.length + 1,
        log: () => {},
      });
      expect(result.observed).toBe(tasks.length + 1);
    } finally {
      await learnerStore.close();
    }
  }, 120_000);
});
