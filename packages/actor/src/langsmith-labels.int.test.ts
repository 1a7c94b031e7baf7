// LangSmith traces of a rollout carry tfgrpo's names and metadata: a real LangChain tracer posts to a local HTTP
// receiver standing in for the LangSmith API (the tracer is LangChain's own, switched on by its variables).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { createSimServer, createSuite } from "@tfgrpo/sim";
import { afterEach, expect, it } from "vitest";
import { createActor } from "./create-actor.js";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

it("names a rollout's LangChain run after the task and tags it with the run, step, role, domain and library", async () => {
  const bodies: string[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(
        (request.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString("utf8"),
      );
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  await using sim = await createSimServer({ seed: 2 });
  try {
    Object.assign(process.env, {
      LANGSMITH_TRACING: "true",
      LANGSMITH_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      LANGSMITH_API_KEY: "lsv2-test-not-a-secret",
      LANGCHAIN_CALLBACKS_BACKGROUND: "false",
      TFGRPO_TEST_ACTOR_KEY: "sk-langsmith-test-secret-4242",
    });
    const models = createModels(
      parseModelsConfig({
        roles: { actor: { baseUrl: sim.url, model: "sim-actor", apiKeyEnv: "TFGRPO_TEST_ACTOR_KEY" } },
      }),
      { env: { ...process.env } },
    );
    const actor = createActor({ models, tools: () => ({ tools: [] }), library: async () => null });
    const [task] = createSuite({ domain: "math", seed: 2, size: 1, split: "train" });
    const trajectory = await actor.rollout({
      runId: "run-langsmith",
      task: task!,
      groupId: "g",
      attempt: 2,
      step: 5,
      library: null,
      mode: "direct",
      purpose: "train",
    });
    expect(trajectory.stopReason, trajectory.error).toBe("answered");
    await awaitAllCallbacks();
    const sent = bodies.join("\n");
    expect(sent).toContain(`tfgrpo rollout ${task!.id} #2`);
    for (const value of ['"tfgrpo_run_id":"run-langsmith"', '"tfgrpo_step":5', '"tfgrpo_role":"actor"']) {
      expect(sent.replace(/\s/g, "")).toContain(value);
    }
    expect(sent).toContain('"tfgrpo_library_version":"none"');
    // The model's API key never goes to the tracing backend.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent).not.toContain("sk-langsmith-test-secret-4242");
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}, 60_000);
