import { actorRollout, createInProcessBus, type JobResult, type Trajectory } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createActorRole, serveActor } from "./actor-role.js";
import { createActor } from "./create-actor.js";
import { createScriptedModels, finalMessage } from "./testing/index.js";

const request = (attempt: number) => ({
  runId: "run-serve",
  task: { id: "t1", domain: "math", question: "1 + 1?" },
  groupId: "g1",
  attempt,
  library: null,
});

describe("serveActor on the in-process Bus", () => {
  it("answers rollout requests and works rollout jobs", async () => {
    const bus = createInProcessBus();
    const actor = createActor({ models: createScriptedModels(() => finalMessage("\\boxed{2}")) });
    const handle = await serveActor({ bus, actor, concurrency: 2 });

    const direct = await bus.request(actorRollout, request(0));
    expect(direct).toMatchObject({ taskId: "t1", attempt: 0, finalAnswer: "2", stopReason: "answered" });

    const results: JobResult<Trajectory>[] = [];
    const done = new Promise<void>((resolve) => {
      void bus.consumeResults(actorRollout, "run-serve", async (result) => {
        results.push(result);
        if (results.length === 3) resolve();
      });
    });
    await bus.enqueue(
      actorRollout,
      [1, 2, 3].map((attempt) => ({ id: `t1#${attempt}`, input: request(attempt) })),
      { replyTo: "run-serve" },
    );
    await done;
    expect(results.map((result) => (result.ok ? result.output.attempt : -1)).sort()).toEqual([1, 2, 3]);
    await handle.close();
    await expect(bus.request(actorRollout, request(4))).rejects.toThrow(/no handler/);
    await bus.close();
  });
});

describe("createActorRole", () => {
  it("fails a job whose rollout was cut short by the worker shutting down", async () => {
    const actor = createActor({
      models: createScriptedModels(
        (_messages, _call, signal) =>
          new Promise((_, reject) => {
            if (signal?.aborted) reject(signal.reason);
            signal?.addEventListener("abort", () => reject(signal.reason));
          }),
      ),
    });
    const [job] = createActorRole(actor, { modes: ["job"] }).endpoints;
    const controller = new AbortController();
    const context = { jobId: "j1", attempt: 1, working: () => {}, signal: controller.signal };
    const running = (job!.handler as (input: unknown, context: unknown) => Promise<unknown>)(
      request(0),
      context,
    );
    controller.abort(new Error("worker is shutting down"));
    await expect(running).rejects.toThrow(/worker is shutting down/);
  });
});
