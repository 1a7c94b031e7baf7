import { inspect } from "node:util";
import { tool } from "@langchain/core/tools";
import { TfgrpoError } from "@tfgrpo/protocol";
import { readRealLibrary } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseModelsConfig } from "./config/parse-models-config.js";
import { type CreateModelsOptions, createModels } from "./create-models.js";
import { hashVector, type ScriptedOpenAIServer, startScriptedOpenAIServer } from "./testing/index.js";

const apiKey = "sk-test-SECRET-0123456789abcdef";
const criticKey = "dsk-critic-SECRET-fedcba987654";
const env = { TEST_API_KEY: apiKey, CRITIC_API_KEY: criticKey };
const prices = { input: 0.4, cachedInput: 0.1, output: 1.6 };

const mathLibrary = readRealLibrary("math");

/** Everything a test needs: a scripted server, models pointed at it, and the delays the backoff asked for. */
function setup(
  server: ScriptedOpenAIServer,
  entry: Record<string, unknown> = {},
  options: Partial<CreateModelsOptions> & { roles?: Record<string, unknown> } = {},
) {
  const sleeps: number[] = [];
  const warnings: string[] = [];
  let clock = 1_000;
  const base = {
    baseUrl: server.url,
    apiKeyEnv: "TEST_API_KEY",
    // Never reached by a real reply, even on a starved machine; tests with scripted hangs set their own.
    timeoutMs: 10_000,
    maxRetries: 3,
    prices,
    ...entry,
  };
  const config = parseModelsConfig(
    {
      models: {
        main: { model: "cheap-model", ...base },
        other: { model: "critic-model", ...base, apiKeyEnv: "CRITIC_API_KEY" },
      },
      roles: {
        actor: "main",
        critic: "other",
        curator: "main",
        judge: "main",
        embedder: { ...base, model: "embed-model" },
        ...options.roles,
      },
    },
    { env },
  );
  const models = createModels(config, {
    env,
    now: () => clock,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    logger: { warn: (message) => warnings.push(message) },
    ...options,
  });
  return {
    models,
    sleeps,
    warnings,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

function lastUserMessage(body: { messages: Array<{ role: string; content: string }> }): string {
  return body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

describe("complete (openai SDK over HTTP)", () => {
  it("sends the role's model and settings with its own key, and returns exact usage and cost", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models, advance } = setup(server, { temperature: 0.3, maxTokens: 512 });
    server.handle(() => {
      advance(250);
      return {
        kind: "chat",
        content: "4",
        usage: { promptTokens: 1200, completionTokens: 300, cachedTokens: 1000 },
      };
    });
    const result = await models.complete("actor", { messages: [{ role: "user", content: "2+2?" }], seed: 7 });
    expect(result.text).toBe("4");
    expect(result.finishReason).toBe("stop");
    // (200 * 0.4 + 1000 * 0.1 + 300 * 1.6) / 1e6
    expect(result.usage).toEqual({
      role: "actor",
      model: "cheap-model",
      inputTokens: 1200,
      cachedInputTokens: 1000,
      outputTokens: 300,
      costUsd: 660 / 1_000_000,
      latencyMs: 250,
    });
    const request = server.requests[0]!;
    expect(request.path).toBe("/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request.headers["openai-organization"]).toBeUndefined();
    expect(request.body).toMatchObject({ model: "cheap-model", temperature: 0.3, max_tokens: 512, seed: 7 });
    expect(models.usage.records).toEqual([result.usage]);
  });

  it("uses each role's own entry and key: the critic is not the actor's model", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    await models.complete("actor", { messages: [{ role: "user", content: "a" }] });
    await models.complete("critic", { messages: [{ role: "user", content: "c" }] });
    expect(server.requests.map((request) => [request.body.model, request.headers.authorization])).toEqual([
      ["cheap-model", `Bearer ${apiKey}`],
      ["critic-model", `Bearer ${criticKey}`],
    ]);
  });

  it("leaves out seed for a provider without seed support, and sends a placeholder key to keyless endpoints", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { supportsSeed: false, apiKeyEnv: undefined });
    await models.complete("actor", { messages: [{ role: "user", content: "a" }], seed: 3 });
    await models.chat("actor", { seed: 3 }).invoke("b", { seed: 4 } as never);
    for (const request of server.requests) {
      expect(request.body.seed).toBeUndefined();
      expect(request.headers.authorization).toBe("Bearer tfgrpo-no-key");
    }
  });

  it("retries 429 honouring Retry-After, then 500 with exponential backoff, then succeeds", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models, sleeps, warnings } = setup(server, { maxRetries: 4 }, { random: () => 0.5 });
    server.reply(
      { kind: "error", status: 429, retryAfter: 2 },
      { kind: "error", status: 429, retryAfterMs: 1500 },
      { kind: "error", status: 500 },
      { kind: "error", status: 503 },
      { kind: "chat", content: "fine" },
    );
    const result = await models.complete("judge", { messages: [{ role: "user", content: "x" }] });
    expect(result.text).toBe("fine");
    // Retry-After plus up to 10% jitter (random 0.5 -> 5%); then 500 ms * 2^attempt * (0.5 + 0.5 * 0.5).
    expect(sleeps).toEqual([2100, 1575, 1500, 3000]);
    expect(server.requests).toHaveLength(5);
    expect(warnings[0]).toContain("judge (cheap-model): POST /v1/chat/completions: HTTP 429; retry 1 of 4");
    expect(models.usage.total.calls).toBe(1);
  });

  it("does not retry a 400, nor a 429 for an exhausted quota", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models, sleeps } = setup(server);
    server.reply(
      {
        kind: "error",
        status: 400,
        message: "bad request: messages too long",
        type: "invalid_request_error",
      },
      { kind: "error", status: 429, code: "insufficient_quota", message: "You exceeded your current quota" },
    );
    const first = await models
      .complete("actor", { messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(TfgrpoError.hasCode(first, "model_error")).toBe(true);
    expect(first.details).toMatchObject({ role: "actor", status: 400, attempts: 1 });
    expect(first.message).toContain("actor (cheap-model): 400 bad request: messages too long");
    const second = await models
      .complete("actor", { messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(second.details).toMatchObject({ status: 429, attempts: 1 });
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([]);
  });

  it("retries a hang past the deadline, a dropped connection, a body cut mid-way and a garbled body", async () => {
    await using server = await startScriptedOpenAIServer();
    // Long enough that a real reply never misses it on a loaded machine; only the scripted hang waits it out.
    const { models, sleeps } = setup(server, { timeoutMs: 2_000, maxRetries: 4 });
    server.reply(
      { kind: "hang" },
      { kind: "drop" },
      { kind: "drop-mid-body" },
      { kind: "raw", body: '{"id": "x", "choices": [' },
      { kind: "chat", content: "survived" },
    );
    const result = await models.complete("actor", { messages: [{ role: "user", content: "x" }] });
    expect(result.text).toBe("survived");
    expect(server.requests).toHaveLength(5);
    expect(sleeps).toEqual([250, 500, 1000, 2000]);
    expect(models.usage.total.calls).toBe(1);
  });

  it("fails with a clear error naming role, model and attempts when retries run out", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { timeoutMs: 100, maxRetries: 2 });
    server.reply({ kind: "hang" }, { kind: "hang" }, { kind: "hang" });
    const timeout = await models
      .complete("actor", { messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(TfgrpoError.hasCode(timeout, "model_error")).toBe(true);
    expect(timeout.message).toBe(
      "actor (cheap-model): POST /v1/chat/completions: no response within 100 ms (3 attempts)",
    );
    // The final error keeps what it failed on and each attempt's failure.
    expect(timeout.cause).toBeInstanceOf(Error);
    expect(timeout.details.failures).toEqual(
      [1, 2, 3].map((attempt) => ({ attempt, failure: "no response within 100 ms" })),
    );
    // Statuses get their own client: a 100 ms deadline could beat a real reply on a loaded machine.
    const { models: patient } = setup(server, { maxRetries: 2 });
    server.reply(
      { kind: "error", status: 500 },
      { kind: "error", status: 502 },
      { kind: "error", status: 500 },
    );
    const status = await patient
      .complete("actor", { messages: [{ role: "user", content: "x" }] })
      .catch((e) => e);
    expect(status.message).toContain("actor (cheap-model): 500 scripted error 500 (after 3 attempts)");
    expect(status.details).toMatchObject({ status: 500, attempts: 3 });
    expect(status.details.failures).toEqual([
      { attempt: 1, failure: "HTTP 500", status: 500 },
      { attempt: 2, failure: "HTTP 502", status: 502 },
      { attempt: 3, failure: "500 scripted error 500", status: 500 },
    ]);
    expect(status.cause).toMatchObject({ status: 500 });
    expect(models.usage.total.calls + patient.usage.total.calls).toBe(0);
  });

  it("stops at once when the caller aborts, without retrying", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { timeoutMs: 60_000 });
    server.reply({ kind: "hang" });
    const controller = new AbortController();
    const pending = models.complete("actor", {
      messages: [{ role: "user", content: "x" }],
      signal: controller.signal,
    });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("run cancelled"));
    await expect(pending).rejects.toThrow("run cancelled");
    expect(server.requests).toHaveLength(1);
  });
});

describe("chat (LangChain ChatOpenAI over HTTP)", () => {
  const calculator = tool(async ({ code }: { code: string }) => code, {
    name: "code_interpreter",
    description: "Runs Python code",
    schema: z.object({ code: z.string() }),
  });

  it("does tool calling with bindTools, and accounts usage with cached tokens", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { temperature: 0.7 });
    server.reply(
      {
        kind: "chat",
        toolCalls: [{ name: "code_interpreter", arguments: { code: "print(2**10)" }, id: "call_1" }],
        usage: { promptTokens: 2000, completionTokens: 40, cachedTokens: 1536 },
      },
      {
        kind: "chat",
        content: "It is \\boxed{1024} [G3]",
        usage: { promptTokens: 2100, completionTokens: 20 },
      },
    );
    const model = models.chat("actor", { seed: 42, temperature: 0.2 }).bindTools([calculator]);
    const first = await model.invoke([{ role: "user", content: "What is 2^10?" }]);
    expect(first.tool_calls).toEqual([
      { name: "code_interpreter", args: { code: "print(2**10)" }, id: "call_1", type: "tool_call" },
    ]);
    const second = await model.invoke([
      { role: "user", content: "What is 2^10?" },
      first,
      { role: "tool", content: "1024", tool_call_id: "call_1" },
    ]);
    expect(second.content).toBe("It is \\boxed{1024} [G3]");

    const sent = server.requests[0]!.body;
    expect(sent).toMatchObject({ model: "cheap-model", temperature: 0.2, seed: 42 });
    expect(sent.tools[0].function.name).toBe("code_interpreter");
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });

    const [one, two] = models.usage.records;
    expect(one).toMatchObject({
      role: "actor",
      inputTokens: 2000,
      cachedInputTokens: 1536,
      outputTokens: 40,
    });
    expect(one!.costUsd).toBe((464 * 0.4 + 1536 * 0.1 + 40 * 1.6) / 1_000_000);
    expect(two!.costUsd).toBe((2100 * 0.4 + 20 * 1.6) / 1_000_000);
    expect(models.usage.byRole("actor")).toMatchObject({
      calls: 2,
      inputTokens: 4100,
      cachedInputTokens: 1536,
      outputTokens: 60,
    });
  });

  it("gives every chat model of a role one OpenAI client, each with its own settings; other roles their own", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply(
      { kind: "chat", content: "a" },
      { kind: "chat", content: "b" },
      { kind: "chat", content: "c" },
    );
    const clientOf = (model: unknown) => (model as { completions: { client: unknown } }).completions.client;
    const first = models.chat("actor", { seed: 1, temperature: 0.1 });
    const second = models.chat("actor", { seed: 2, temperature: 0.9 }).bindTools([calculator]);
    const critic = models.chat("critic");
    await first.invoke([{ role: "user", content: "one" }]);
    await second.invoke([{ role: "user", content: "two" }]);
    await critic.invoke([{ role: "user", content: "three" }]);
    expect(clientOf(first)).toBeDefined();
    // bindTools makes a new model (withConfig): it shares the client too.
    expect(clientOf(second)).toBe(clientOf(first));
    expect(clientOf(critic)).not.toBe(clientOf(first));
    // Shared client, per-model settings: each request carries its own seed and temperature, and its role's key.
    expect(server.requests.map((request) => [request.body.seed, request.body.temperature])).toEqual([
      [1, 0.1],
      [2, 0.9],
      [undefined, undefined],
    ]);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(server.requests[2]!.headers.authorization).toBe(`Bearer ${criticKey}`);
  });

  it("retries 429, 500, a hang and a dropped connection under ChatOpenAI too", async () => {
    await using server = await startScriptedOpenAIServer();
    // Long enough that a real reply never misses it on a loaded machine; only the scripted hang waits it out.
    const { models, sleeps } = setup(server, { timeoutMs: 2_000, maxRetries: 4 });
    server.reply(
      { kind: "error", status: 429, retryAfter: 1 },
      { kind: "error", status: 500 },
      { kind: "hang" },
      { kind: "drop" },
      { kind: "chat", toolCalls: [{ name: "code_interpreter", arguments: { code: "1" } }] },
    );
    const reply = await models.chat("actor").bindTools([calculator]).invoke("go");
    expect(reply.tool_calls?.[0]?.name).toBe("code_interpreter");
    expect(sleeps).toEqual([1000, 500, 1000, 2000]);
    expect(server.requests).toHaveLength(5);
    expect(models.usage.total.calls).toBe(1);
  });

  it("counts usage of streamed answers", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply({
      kind: "chat",
      content: "streamed answer",
      usage: { promptTokens: 70, completionTokens: 9, cachedTokens: 64 },
    });
    let text = "";
    for await (const chunk of await models.chat("critic").stream("hello")) text += String(chunk.content);
    expect(text).toBe("streamed answer");
    expect(server.requests[0]!.body.stream).toBe(true);
    expect(models.usage.records).toEqual([
      expect.objectContaining({
        role: "critic",
        model: "critic-model",
        inputTokens: 70,
        cachedInputTokens: 64,
        outputTokens: 9,
      }),
    ]);
  });

  it("ends a stream that stalls, with a clear error, after one deadline of silence", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { timeoutMs: 1_000 });
    server.reply({ kind: "stall-stream" });
    const chunks: string[] = [];
    const error = await (async () => {
      for await (const chunk of await models.chat("actor").stream("hello"))
        chunks.push(String(chunk.content));
    })().catch((e) => e);
    expect(chunks.join("")).toBe("par");
    expect(TfgrpoError.hasCode(error, "model_error")).toBe(true);
    expect(error.message).toContain("actor (cheap-model): stream stalled: no data for 1000 ms");
    expect(server.requests).toHaveLength(1);
    expect(models.usage.total.calls).toBe(0);
  });

  it("collects one piece of work's usage across clients with track()", async () => {
    await using server = await startScriptedOpenAIServer({
      defaultUsage: { promptTokens: 100, completionTokens: 10 },
    });
    const { models } = setup(server);
    await models.complete("judge", { messages: [{ role: "user", content: "before" }] });
    const tracked = await models.track(async () => {
      await models.chat("actor").invoke("step 1");
      const inner = await models.track(() =>
        models.complete("actor", { messages: [{ role: "user", content: "step 2" }] }),
      );
      expect(inner.usage.calls).toBe(1);
      return "done";
    });
    expect(tracked.result).toBe("done");
    expect(tracked.usage).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 20 });
    expect(models.usage.total.calls).toBe(3);
  });
});

describe("structured output", () => {
  const verdictSchema = z.object({
    verdict: z.enum(["correct", "partial", "incorrect"]),
    reason: z.string(),
  });
  const judgeMessages = [
    { role: "system" as const, content: "You grade answers." },
    {
      role: "user" as const,
      content: "<question>2+2?</question>\n<groundtruth>4</groundtruth>\n<response>4</response>",
    },
  ];

  it("asks with a json_schema response_format and validates the answer", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply({ kind: "chat", content: '{"verdict": "correct", "reason": "matches"}' });
    const result = await models.structured("judge", {
      messages: judgeMessages,
      schema: verdictSchema,
      name: "verdict",
    });
    expect(result).toMatchObject({
      value: { verdict: "correct", reason: "matches" },
      attempts: 1,
      mode: "json_schema",
    });
    const format = server.requests[0]!.body.response_format;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.name).toBe("verdict");
    expect(format.json_schema.schema.properties.verdict.enum).toEqual(["correct", "partial", "incorrect"]);
    // The prompt is left as the caller wrote it.
    expect(server.requests[0]!.body.messages).toEqual(judgeMessages);
  });

  it("repairs fenced JSON with prose and trailing commas, and JSON cut off at the token limit", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { structuredOutput: "text" });
    server.reply(
      {
        kind: "chat",
        content:
          'Here is my verdict:\n```json\n{"verdict": "partial", "reason": "close",}\n```\nHope it helps.',
      },
      {
        kind: "chat",
        content: '{"verdict": "incorrect", "reason": "the response says 5 whe',
        finishReason: "length",
      },
    );
    const fenced = await models.structured("judge", {
      messages: judgeMessages,
      schema: verdictSchema,
      name: "verdict",
    });
    expect(fenced.value).toEqual({ verdict: "partial", reason: "close" });
    const cut = await models.structured("judge", {
      messages: judgeMessages,
      schema: verdictSchema,
      name: "verdict",
    });
    expect(cut.value).toEqual({ verdict: "incorrect", reason: "the response says 5 whe" });
    expect(cut.attempts).toBe(1);
    // Text mode: no response_format, the schema travels in the system message, the last user message is untouched.
    const sent = server.requests[0]!.body;
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages[0].content).toContain("You grade answers.\n\nAnswer with one JSON object (verdict)");
    expect(sent.messages[0].content).toContain('"enum":["correct","partial","incorrect"]');
    expect(lastUserMessage(sent)).toBe(judgeMessages[1]!.content);
  });

  it("retries showing the model its validation error, keeping the prompt's markers in the last user message", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { structuredOutput: "json_object" });
    server.reply(
      { kind: "chat", content: "I think it is right.", usage: { promptTokens: 100, completionTokens: 10 } },
      { kind: "chat", content: '{"verdict": "yes"}', usage: { promptTokens: 150, completionTokens: 8 } },
      {
        kind: "chat",
        content: '{"verdict": "correct", "reason": "4 = 4"}',
        usage: { promptTokens: 200, completionTokens: 12 },
      },
    );
    const result = await models.structured("judge", {
      messages: judgeMessages,
      schema: verdictSchema,
      name: "verdict",
    });
    expect(result.value).toEqual({ verdict: "correct", reason: "4 = 4" });
    expect(result.attempts).toBe(3);
    expect(result.raw).toBe('{"verdict": "correct", "reason": "4 = 4"}');
    expect(result.usage).toMatchObject({ inputTokens: 450, outputTokens: 30 });
    expect(result.usage.costUsd).toBeCloseTo((450 * 0.4 + 30 * 1.6) / 1_000_000, 15);

    const second = lastUserMessage(server.requests[1]!.body);
    expect(second.startsWith(judgeMessages[1]!.content)).toBe(true);
    expect(second).toContain("<previous_answer>\nI think it is right.\n</previous_answer>");
    expect(second).toContain("<validation_error>no JSON value could be recovered");
    const third = lastUserMessage(server.requests[2]!.body);
    expect(third).toContain("<validation_error>verdict: Invalid option");
    expect(third).toContain("reason: Invalid input: expected string, received undefined");
    expect(server.requests.every((request) => request.body.response_format?.type === "json_object")).toBe(
      true,
    );
    expect(models.usage.byRole("judge").calls).toBe(3);
  });

  it("gives up after maxAttempts with every attempt's error, and the usage spent", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply({ kind: "chat", content: "nope" }, { kind: "chat", content: '{"verdict": 1}' });
    const error = await models
      .structured("judge", {
        messages: judgeMessages,
        schema: verdictSchema,
        name: "verdict",
        maxAttempts: 2,
      })
      .catch((e) => e);
    expect(TfgrpoError.hasCode(error, "model_error")).toBe(true);
    expect(error.message).toMatch(
      /^judge \(cheap-model\): no valid verdict after 2 attempts: attempt 1 \(json_schema\): no JSON/,
    );
    expect(error.message).toContain("attempt 2 (json_schema): verdict: Invalid option");
    expect(error.details.attempts).toHaveLength(2);
    expect(error.details.attempts[0]).toMatchObject({ attempt: 1, raw: "nope" });
    expect(error.details.usage).toMatchObject({ inputTokens: 20, outputTokens: 10 });
  });

  it("steps down to json_object, then text, when the provider refuses a response_format, and remembers it", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models, warnings } = setup(server);
    server.reply(
      {
        kind: "error",
        status: 400,
        message: "response_format type json_schema is not supported by this model",
      },
      { kind: "error", status: 400, message: "This response_format type is unavailable now" },
      { kind: "chat", content: '```json\n{"verdict": "correct", "reason": "ok"}\n```' },
      { kind: "chat", content: '{"verdict": "correct", "reason": "again"}' },
    );
    const first = await models.structured("judge", {
      messages: judgeMessages,
      schema: verdictSchema,
      name: "verdict",
    });
    expect(first).toMatchObject({ attempts: 1, mode: "text", value: { reason: "ok" } });
    const second = await models.structured("judge", {
      messages: judgeMessages,
      schema: verdictSchema,
      name: "verdict",
    });
    expect(second.mode).toBe("text");
    expect(server.requests.map((request) => request.body.response_format?.type ?? "none")).toEqual([
      "json_schema",
      "json_object",
      "none",
      "none",
    ]);
    expect(
      warnings.some((warning) => warning.includes("provider refused json_schema, using json_object")),
    ).toBe(true);
  });

  it("handles the curator's consolidation over a real experience library", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    const operationsSchema = z.object({
      operations: z
        .array(
          z.discriminatedUnion("option", [
            z.object({
              option: z.literal("merge"),
              experience_ids: z.array(z.string()).min(2),
              experience: z.string(),
              reason: z.string(),
            }),
            z.object({ option: z.literal("keep"), experience_id: z.string(), reason: z.string() }),
          ]),
        )
        .max(32),
    });
    const lines = Object.entries(mathLibrary).map(([id, text]) => `[${id}]. ${text}`);
    const merged =
      "Verify results with independent methods (computation and reasoning) and investigate discrepancies.";
    // A long answer cut off mid-operation: the finished operations are kept.
    server.reply({
      kind: "chat",
      content: `{"operations": [{"option": "merge", "experience_ids": ["G2", "G6"], "experience": "${merged}", "reason": "overlap"}, {"option": "keep", "experience_id": "G0", "reason": "distinct"}, {"option": "keep", "experience_id": "G1", "rea`,
      finishReason: "length",
    });
    const result = await models.structured("curator", {
      messages: [
        {
          role: "user",
          content: `<experience>\n${lines.join("\n")}\n</experience>\n<suggested_updates>\n[]\n</suggested_updates>`,
        },
      ],
      schema: operationsSchema,
      name: "consolidation",
    });
    expect(result.value.operations).toEqual([
      { option: "merge", experience_ids: ["G2", "G6"], experience: merged, reason: "overlap" },
      { option: "keep", experience_id: "G0", reason: "distinct" },
    ]);
    expect(result).toMatchObject({ attempts: 1, repairs: ["truncation"] });
    expect(lastUserMessage(server.requests[0]!.body)).toContain(`[G26]. ${mathLibrary.G26}`);
  });
});

describe("embeddings", () => {
  it("embeds a real library in batches, in input order, and records each batch", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(
      server,
      {},
      {
        roles: {
          embedder: {
            baseUrl: server.url,
            model: "embed-model",
            batchSize: 10,
            dimensions: 8,
            prices: { input: 0.02, output: 0 },
          },
        },
      },
    );
    const texts = Object.values(mathLibrary);
    const vectors = await models.embed(texts);
    expect(vectors).toEqual(texts.map((text) => hashVector(text)));
    expect(server.requests.map((request) => request.body.input.length)).toEqual([10, 10, 7]);
    expect(server.requests[0]!.body).toMatchObject({
      model: "embed-model",
      encoding_format: "float",
      dimensions: 8,
    });
    expect(models.usage.byRole("embedder")).toMatchObject({ calls: 3, inputTokens: 27, outputTokens: 0 });
    expect(await models.embed([])).toEqual([]);
  });

  it("rejects a response with the wrong number of vectors", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply({ kind: "embedding", vectors: [[1, 0]] });
    await expect(models.embed(["a", "b"])).rejects.toThrow(
      "embedder (embed-model): asked for 2 embeddings (texts 0..1), got 1",
    );
  });
});

describe("budget", () => {
  it("refuses new calls once spent, lets in-flight calls finish, and records what was paid for", async () => {
    await using server = await startScriptedOpenAIServer();
    const recorded: number[] = [];
    const exceeded: number[] = [];
    // Each call: 1000 input tokens at $1/M + 1000 output at $3/M = $0.004.
    const { models } = setup(
      server,
      { prices: { input: 1, output: 3 } },
      {
        budget: { usd: 0.01 },
        onUsage: (usage) => recorded.push(usage.costUsd),
      },
    );
    models.budget.onExceeded((budget) => exceeded.push(budget.spentUsd));
    const usage = { promptTokens: 1000, completionTokens: 1000 };
    await models.complete("actor", { messages: [{ role: "user", content: "1" }] }).catch(() => undefined);
    server.reply({ kind: "chat", usage }, { kind: "chat", usage });
    server.handle(() => ({ kind: "delay", ms: 30, reply: { kind: "chat", usage } }));
    await models.complete("actor", { messages: [{ role: "user", content: "1" }] });
    await models.complete("actor", { messages: [{ role: "user", content: "2" }] });
    expect(models.budget.exceeded).toBe(false);
    // Three calls in flight together: each was allowed when sent, so all three finish and are recorded.
    const inFlight = await Promise.all(
      ["a", "b", "c"].map((content) => models.complete("critic", { messages: [{ role: "user", content }] })),
    );
    expect(inFlight).toHaveLength(3);
    expect(models.budget.exceeded).toBe(true);
    expect(models.usage.total.calls).toBe(6);
    expect(models.budget.spentUsd).toBeCloseTo(0.000025 + 0.004 * 5, 12);
    expect(recorded).toHaveLength(6);
    expect(exceeded).toHaveLength(1);

    const sentBefore = server.requests.length;
    const refused = await models
      .complete("actor", { messages: [{ role: "user", content: "more" }] })
      .catch((e) => e);
    expect(TfgrpoError.hasCode(refused, "budget_exceeded")).toBe(true);
    expect(refused.message).toMatch(
      /^budget of \$0\.01 reached \(\$0\.0200\d+ spent\): no new actor call is sent$/,
    );
    await expect(models.chat("actor").invoke("more")).rejects.toMatchObject({ code: "budget_exceeded" });
    await expect(
      models.structured("judge", {
        messages: [{ role: "user", content: "x" }],
        schema: z.object({}),
        name: "x",
      }),
    ).rejects.toMatchObject({ code: "budget_exceeded" });
    await expect(models.embed(["x"])).rejects.toMatchObject({ code: "budget_exceeded" });
    expect(server.requests.length).toBe(sentBefore);
  });
});

describe("secrets", () => {
  it("never lets an API key into errors, logs or usage records, even when the provider echoes it", async () => {
    await using server = await startScriptedOpenAIServer();
    const logged: string[] = [];
    const { models } = setup(
      server,
      { maxRetries: 1 },
      {
        logger: {
          warn: (message, fields) => logged.push(message, JSON.stringify(fields)),
          debug: (message) => logged.push(message),
        },
      },
    );
    const echo = (request: { headers: Record<string, unknown> }) =>
      `Incorrect API key provided: ${String(request.headers.authorization)}`;
    server.handle((request) => ({
      kind: "error",
      status: request.index % 2 === 0 ? 500 : 401,
      message: echo(request),
    }));
    const errors = [
      await models.complete("actor", { messages: [{ role: "user", content: "x" }] }).catch((e) => e),
      await models
        .chat("critic")
        .invoke("x")
        .catch((e) => e),
      await models
        .structured("judge", { messages: [{ role: "user", content: "x" }], schema: z.object({}), name: "x" })
        .catch((e) => e),
      await models.embed(["x"]).catch((e) => e),
    ];
    expect(server.requests.length).toBeGreaterThanOrEqual(8);
    for (const error of errors) {
      expect(TfgrpoError.hasCode(error, "model_error")).toBe(true);
      expect(error.message).toContain("Incorrect API key provided");
      for (const text of [error.message, error.stack, JSON.stringify(error), inspect(error, { depth: 10 })]) {
        expect(text).not.toContain(apiKey);
        expect(text).not.toContain(criticKey);
        expect(text).not.toContain("SECRET");
      }
    }
    // What LangChain may store or trace about a model: cache keys, serialized forms.
    const chat = models.chat("actor");
    const described = [
      JSON.stringify(chat.toJSON()),
      JSON.stringify(chat.serialize()),
      chat._getSerializedCacheKeyParametersForCall({} as never),
    ];
    const everything = [
      ...logged,
      ...described,
      JSON.stringify(models.usage.records),
      JSON.stringify(models.config),
    ].join("\n");
    expect(everything).not.toContain("SECRET");
    expect(logged.length).toBeGreaterThan(0);
  });
});
