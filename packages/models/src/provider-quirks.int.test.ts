// Providers' documented departures from OpenAI's wire format, each reproduced over HTTP by a scripted server and met
// through the real clients: the openai SDK (`complete`) and LangChain's ChatOpenAI (`chat`).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseModelsConfig } from "./config/parse-models-config.js";
import { createModels } from "./create-models.js";
import { reasoningOf } from "./reasoning-completions.js";
import {
  type RecordedRequest,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
} from "./testing/index.js";

const prices = { input: 1, output: 10 };

function setup(server: ScriptedOpenAIServer, entry: Record<string, unknown> = {}) {
  const warnings: string[] = [];
  const models = createModels(
    parseModelsConfig({
      roles: {
        actor: { baseUrl: server.url, model: "reasoner", maxRetries: 2, timeoutMs: 10_000, prices, ...entry },
      },
    }),
    { sleep: async () => {}, logger: { warn: (message) => warnings.push(message) } },
  );
  return { models, warnings };
}

const lookup = tool(async ({ city }: { city: string }) => `${city}: 21 C`, {
  name: "weather",
  description: "Current weather of a city.",
  schema: z.object({ city: z.string() }),
});

const chats = (server: ScriptedOpenAIServer) =>
  server.requests.filter((request) => request.path === "/chat/completions");

/** DeepSeek's documented rule: an assistant message with tool calls must carry its reasoning in every later request. */
function refuseWithoutReasoning(field: string) {
  return (request: RecordedRequest) => {
    const missing = (request.body?.messages ?? []).some(
      (message: Record<string, unknown>) =>
        message.role === "assistant" &&
        message.tool_calls !== undefined &&
        typeof message[field] !== "string",
    );
    if (missing) {
      return {
        kind: "error" as const,
        status: 400,
        message: `The ${field} in the thinking mode must be passed back to the API.`,
        type: "invalid_request_error",
      };
    }
    return undefined;
  };
}

describe("reasoning returned beside tool calls", () => {
  for (const field of ["reasoning_content", "reasoning"] as const) {
    for (const streaming of [false, true]) {
      it(`is kept and sent back under \`${field}\`${streaming ? " (streamed)" : ""}`, async () => {
        await using server = await startScriptedOpenAIServer();
        const { models } = setup(server, streaming ? { params: {} } : {});
        const guard = refuseWithoutReasoning(field);
        server.handle((request) => guard(request) ?? { kind: "chat", content: "It is 21 C. \\boxed{21}" });
        server.reply({
          kind: "chat",
          content: null,
          reasoning: "The user wants the weather; call the tool.",
          reasoningField: field,
          toolCalls: [{ id: "call_w", name: "weather", arguments: { city: "Oslo" } }],
        });
        const model = models.chat("actor");
        const bound = model.bindTools([lookup]);
        const history = [new SystemMessage("You are helpful."), new HumanMessage("Weather in Oslo?")];
        let first: AIMessage;
        if (streaming) {
          let merged: AIMessage | undefined;
          for await (const chunk of await bound.stream(history)) {
            merged = merged
              ? (merged as never as { concat(other: unknown): AIMessage }).concat(chunk)
              : chunk;
          }
          first = merged as AIMessage;
        } else first = (await bound.invoke(history)) as AIMessage;
        expect(reasoningOf(first)).toBe("The user wants the weather; call the tool.");
        expect(first.tool_calls?.map((call) => call.name)).toEqual(["weather"]);
        const second = await bound.invoke([
          ...history,
          first,
          new ToolMessage({ content: "Oslo: 21 C", tool_call_id: first.tool_calls![0]!.id! }),
        ]);
        expect(second.content).toContain("\\boxed{21}");
        const sent = chats(server)[1]!.body.messages.find(
          (message: { role: string }) => message.role === "assistant",
        );
        expect(sent[field]).toBe("The user wants the weather; call the tool.");
        // Only the provider's own field name goes back.
        expect(Object.keys(sent).filter((key) => key.startsWith("reasoning"))).toEqual([field]);
      });
    }
  }

  it("sends an empty reasoning back too (an omitted empty one is refused)", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.handle(
      (request) => refuseWithoutReasoning("reasoning_content")(request) ?? { kind: "chat", content: "ok" },
    );
    server.reply({
      kind: "chat",
      content: null,
      reasoning: "",
      toolCalls: [{ id: "call_e", name: "weather", arguments: { city: "Rome" } }],
    });
    const bound = models.chat("actor").bindTools([lookup]);
    const first = (await bound.invoke([new HumanMessage("Rome?")])) as AIMessage;
    await bound.invoke([
      new HumanMessage("Rome?"),
      first,
      new ToolMessage({ content: "Rome: 30 C", tool_call_id: "call_e" }),
    ]);
    expect(chats(server)).toHaveLength(2);
    expect(chats(server)[1]!.reply?.kind).toBe("chat");
  });
});

describe("usage where providers put it", () => {
  const cases: Array<[string, Record<string, unknown>, number]> = [
    [
      "reasoning reported only in completion_tokens_details",
      {
        rawUsage: {
          prompt_tokens: 100,
          completion_tokens: 20,
          completion_tokens_details: { reasoning_tokens: 600 },
        },
      },
      620,
    ],
    [
      "a total larger than prompt + completion",
      { rawUsage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 900 } },
      800,
    ],
    [
      "Groq's x_groq.usage",
      { rawUsage: { prompt_tokens: 100, completion_tokens: 40, total_tokens: 140 }, usageAt: "x_groq" },
      40,
    ],
    [
      "usage inside the choice",
      { rawUsage: { prompt_tokens: 100, completion_tokens: 30 }, usageAt: "choice" },
      30,
    ],
  ];
  for (const [name, reply, billed] of cases) {
    it(`bills ${billed} output tokens for ${name}, through both clients`, async () => {
      await using server = await startScriptedOpenAIServer();
      const { models } = setup(server);
      server.handle(() => ({ kind: "chat", content: "done", ...reply }));
      const viaSdk = await models.complete("actor", { messages: [{ role: "user", content: "q" }] });
      expect(viaSdk.usage).toMatchObject({ inputTokens: 100, outputTokens: billed });
      expect(viaSdk.usage.costUsd).toBeCloseTo((100 * 1 + billed * 10) / 1e6, 12);
      const { usage } = await models.track(() => models.chat("actor").invoke([new HumanMessage("q")]));
      expect(usage).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: billed });
      // Streamed, the usage arrives in the last event.
      const streamed = await models.track(async () => {
        for await (const _chunk of await models.chat("actor").stream([new HumanMessage("q")])) {
          // drained
        }
      });
      expect(streamed.usage).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: billed });
    });
  }

  it("counts a call without usage at zero cost and says so once", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models, warnings } = setup(server);
    server.handle(() => ({ kind: "chat", content: "x", usage: null }));
    await models.complete("actor", { messages: [{ role: "user", content: "q" }] });
    await models.complete("actor", { messages: [{ role: "user", content: "q" }] });
    expect(models.usage.byRole("actor")).toMatchObject({ calls: 2, costUsd: 0 });
    expect(warnings.filter((warning) => /sent no token usage/.test(warning))).toHaveLength(1);
  });
});

describe("streams", () => {
  it("keeps streamed tool calls when deltas carry no role and indices do not start at 0", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply({
      kind: "chat",
      content: null,
      omitRole: true,
      toolCallIndexBase: 1,
      toolCalls: [
        { id: "call_a", name: "weather", arguments: { city: "Oslo" } },
        { id: "call_b", name: "weather", arguments: { city: "Lima" } },
      ],
    });
    const bound = models.chat("actor").bindTools([lookup]);
    let merged: AIMessage | undefined;
    for await (const chunk of await bound.stream([new HumanMessage("Oslo and Lima?")])) {
      expect(AIMessage.isInstance(chunk) || chunk.getType() === "ai").toBe(true);
      merged = merged ? (merged as never as { concat(other: unknown): AIMessage }).concat(chunk) : chunk;
    }
    expect(merged?.tool_calls?.map((call) => [call.id, call.args])).toEqual([
      ["call_a", { city: "Oslo" }],
      ["call_b", { city: "Lima" }],
    ]);
  });

  for (const [shape, event] of [
    ["OpenAI/OpenRouter", { error: { message: "upstream model overloaded", code: 502 } }],
    [
      "vLLM",
      { object: "error", message: "upstream model overloaded", type: "InternalServerError", code: 500 },
    ],
    [
      "finish_reason error",
      {
        id: "x",
        choices: [
          { index: 0, delta: {}, finish_reason: "error", error: { message: "upstream model overloaded" } },
        ],
      },
    ],
  ] as const) {
    it(`turns an error inside a 200 stream (${shape}) into a model error, never an empty answer`, async () => {
      await using server = await startScriptedOpenAIServer();
      const { models } = setup(server);
      server.reply({ kind: "chat", content: "partial ans", streamError: event as Record<string, unknown> });
      const failure = await (async () => {
        for await (const _chunk of await models.chat("actor").stream([new HumanMessage("q")])) {
          // drained
        }
      })().catch((error: unknown) => error);
      expect(TfgrpoError.hasCode(failure, "model_error")).toBe(true);
      expect((failure as Error).message).toMatch(/^actor \(reasoner\): .*upstream model overloaded/);
    });
  }

  it("answers an error sent as a 200 JSON body as the error it is (retried, then reported)", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    const inBand = {
      kind: "raw" as const,
      body: JSON.stringify({ error: { message: "provider returned error", code: 502 } }),
    };
    server.reply(inBand, inBand, inBand);
    const failure = await models
      .complete("actor", { messages: [{ role: "user", content: "q" }] })
      .catch((error: unknown) => error);
    expect(TfgrpoError.hasCode(failure, "model_error")).toBe(true);
    expect((failure as Error).message).toMatch(/provider returned error/);
    expect(chats(server)).toHaveLength(3);
    // A single in-band failure is retried away.
    server.reply(inBand);
    const answered = await models.complete("actor", { messages: [{ role: "user", content: "q" }] });
    expect(answered.text).toBe("ok");
  });
});

describe("errors and refusals", () => {
  const toolUseFailed = {
    kind: "raw" as const,
    status: 400,
    body: JSON.stringify({
      error: {
        message:
          "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
        type: "invalid_request_error",
        code: "tool_use_failed",
        failed_generation: '<function=weather>{"city": Oslo}</function>',
      },
    }),
  };

  it("retries a 400 that names a failed tool call, and names it when it persists", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    server.reply(toolUseFailed);
    const bound = models.chat("actor").bindTools([lookup]);
    const answered = await bound.invoke([new HumanMessage("Oslo?")]);
    expect(answered.content).toBe("ok");
    server.reply(toolUseFailed, toolUseFailed, toolUseFailed);
    const failure = await bound.invoke([new HumanMessage("Oslo?")]).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      "actor (reasoner): the provider rejected the tool call the model generated (400 tool_use_failed: Failed to " +
        "call a function. Please adjust your prompt. See 'failed_generation' for more details.): " +
        '<function=weather>{"city": Oslo}</function> (after 3 attempts)',
    );
  });

  it("keeps the provider's explanation of which schema rule a rejected tool call broke", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server);
    const schemaRule = {
      kind: "raw" as const,
      status: 400,
      body: JSON.stringify({
        error: {
          message:
            "tool call validation failed: parameters for tool weather did not match schema: errors: [`/city`: expected string, but got number]",
          type: "invalid_request_error",
          code: "tool_use_failed",
          failed_generation: '{"name": "weather", "arguments": {"city": 7}}',
        },
      }),
    };
    server.reply(schemaRule, schemaRule, schemaRule);
    const bound = models.chat("actor").bindTools([lookup]);
    const failure = await bound.invoke([new HumanMessage("Oslo?")]).catch((error: unknown) => error);
    expect((failure as Error).message).toContain(
      "(400 tool_use_failed: tool call validation failed: parameters for tool weather did not match schema: " +
        "errors: [`/city`: expected string, but got number]): ",
    );
    expect((failure as Error).message).toContain('{"name": "weather", "arguments": {"city": 7}}');
  });

  it("sends a developer message as system, and drops refused fields, for a model configured so", async () => {
    await using server = await startScriptedOpenAIServer();
    // LangChain sends `developer` for model names it takes for OpenAI reasoning models.
    const { models } = setup(server, {
      model: "o3-mini",
      refuses: { roles: ["developer"], params: ["seed", "parallel_tool_calls"] },
    });
    server.handle((request) =>
      request.body.messages.some((message: { role: string }) => message.role === "developer") ||
      "seed" in request.body
        ? {
            kind: "error",
            status: 400,
            message: "Unsupported value: 'developer'",
            type: "invalid_request_error",
          }
        : undefined,
    );
    await models.chat("actor", { seed: 3 }).invoke([new SystemMessage("Be brief."), new HumanMessage("hi")]);
    await models.complete("actor", {
      messages: [
        { role: "developer" as never, content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      seed: 3,
    });
    for (const request of chats(server)) {
      expect(request.body.messages[0].role).toBe("system");
      expect(request.body.seed).toBeUndefined();
      expect(request.reply?.kind).toBe("chat");
    }
  });

  it("without the option, the same server's refusal is a clear model error", async () => {
    await using server = await startScriptedOpenAIServer();
    const { models } = setup(server, { model: "o3-mini" });
    server.handle((request) =>
      request.body.messages.some((message: { role: string }) => message.role === "developer")
        ? {
            kind: "error",
            status: 400,
            message: "Unsupported value: 'developer'",
            type: "invalid_request_error",
          }
        : undefined,
    );
    const failure = await models
      .chat("actor")
      .invoke([new SystemMessage("Be brief."), new HumanMessage("hi")])
      .catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/^actor \(o3-mini\): 400 Unsupported value: 'developer'/);
  });
});
