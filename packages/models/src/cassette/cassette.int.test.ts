import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { parseModelsConfig } from "../config/parse-models-config.js";
import { createModels } from "../create-models.js";
import { startScriptedOpenAIServer } from "../testing/index.js";
import { type Cassette, cassetteFileName, recordCassette, replayCassette } from "./cassette.js";

const key = "sk-cassette-SECRET-0123456789abcdef";
const env = { TEST_KEY: key };

function modelsFor(url: string, cassette: Cassette) {
  const entry = {
    baseUrl: url,
    apiKeyEnv: "TEST_KEY",
    maxRetries: 2,
    timeoutMs: 10_000,
    prices: { input: 1, output: 2 },
  };
  return createModels(
    parseModelsConfig(
      {
        roles: {
          actor: { ...entry, model: "a" },
          critic: { ...entry, model: "c" },
          embedder: { ...entry, model: "e" },
        },
      },
      { env },
    ),
    { env, cassette, sleep: async () => {} },
  );
}

async function conversation(models: ReturnType<typeof modelsFor>) {
  const answers: unknown[] = [];
  answers.push(
    (await models.complete("critic", { messages: [{ role: "user", content: "judge this" }], seed: 1 })).text,
  );
  answers.push((await models.chat("actor", { seed: 2 }).invoke([new HumanMessage("solve")])).content);
  let streamed = "";
  for await (const chunk of await models.chat("actor", { seed: 3 }).stream([new HumanMessage("stream")])) {
    streamed += String(chunk.content);
  }
  answers.push(streamed);
  answers.push(await models.embed(["x", "y"]));
  // The same request twice: answered in the recorded order.
  answers.push((await models.complete("critic", { messages: [{ role: "user", content: "again" }] })).text);
  answers.push((await models.complete("critic", { messages: [{ role: "user", content: "again" }] })).text);
  return answers;
}

describe("cassettes: record every model exchange, replay them without the network", () => {
  it("replays a recording (a retried 500 included) to the same answers and usage, with the key nowhere in it", async () => {
    await using directory = await temporaryDirectory("cassette");
    const server = await startScriptedOpenAIServer();
    let turn = 0;
    server.handle((request) =>
      request.path === "/embeddings"
        ? undefined
        : {
            kind: "chat",
            content: `answer ${++turn}`,
            usage: { promptTokens: 10 * turn, completionTokens: turn },
          },
    );
    server.reply({ kind: "error", status: 500, message: "flaky" });
    const recorder = recordCassette(directory.path);
    const recording = modelsFor(server.url, recorder);
    recorder.setStep("step 1 rollouts");
    const recorded = await conversation(recording);
    await server.close();

    const files = readdirSync(directory.path);
    expect(files).toEqual([cassetteFileName]);
    const text = readFileSync(path.join(directory.path, cassetteFileName), "utf8");
    expect(text).not.toContain(key);
    expect(text).toContain('"authorization":"[REDACTED]"');
    expect(recorder.exchanges).toBe(7);

    const replayer = replayCassette(directory.path);
    const replaying = modelsFor(server.url, replayer);
    const replayed = await conversation(replaying);
    expect(replayed).toEqual(recorded);
    expect(replayer.exchanges).toBe(7);
    for (const role of ["actor", "critic", "embedder"] as const) {
      const { latencyMs: _a, ...live } = recording.usage.byRole(role);
      const { latencyMs: _b, ...again } = replaying.usage.byRole(role);
      expect(again).toEqual(live);
    }
  });

  it("refuses a request the recording does not hold, naming the role and the step", async () => {
    await using directory = await temporaryDirectory("cassette-miss");
    await using server = await startScriptedOpenAIServer();
    const recorder = recordCassette(directory.path);
    await modelsFor(server.url, recorder).complete("critic", {
      messages: [{ role: "user", content: "one" }],
    });
    const misses: TfgrpoError[] = [];
    const replayer = replayCassette(directory.path, { onMiss: (error) => misses.push(error) });
    replayer.setStep("step 2 advantages");
    const failure = await modelsFor(server.url, replayer)
      .complete("critic", { messages: [{ role: "user", content: "two" }] })
      .catch((error: unknown) => error);
    expect(TfgrpoError.hasCode(failure, "invalid_input")).toBe(true);
    expect((failure as Error).message).toMatch(
      /^replay: the cassette in .* has no answer for a request of role critic during step 2 advantages \(POST \/v1\/chat\/completions, model c, request hash [0-9a-f]{12}\)/,
    );
    expect(misses).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a missing or corrupt cassette with the file and line", async () => {
    await using directory = await temporaryDirectory("cassette-bad");
    expect(() => replayCassette(directory.path)).toThrow(/no cassette there/);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(directory.path, cassetteFileName), '{"hash":"x"}\n');
    expect(() => replayCassette(directory.path)).toThrow(
      new RegExp(`${cassetteFileName}:1: not a cassette exchange`),
    );
  });
});
