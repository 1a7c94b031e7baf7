// A ReAct rollout with a reasoning model in thinking mode, through @tfgrpo/models' ChatOpenAI over HTTP against a
// scripted server that behaves as DeepSeek documents: reasoning_content beside tool_calls, required back in every
// later request (else 400), and reasoning tokens billed beside completion_tokens.
import { tool } from "@langchain/core/tools";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { type RecordedRequest, startScriptedOpenAIServer } from "@tfgrpo/models/testing";
import type { RolloutRequest } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createActor } from "./create-actor.js";

const request: RolloutRequest = {
  runId: "run-reasoning",
  task: { id: "t-r", domain: "math", question: "What is 6 * 7?" },
  groupId: "g",
  attempt: 0,
  library: null,
};

const multiplier = () =>
  tool(
    async ({ code }: { code: string }) => {
      const match = /(\d+)\s*\*\s*(\d+)/.exec(code);
      return match ? `${Number(match[1]) * Number(match[2])}\n` : "NameError";
    },
    {
      name: "code_interpreter",
      description: "Runs Python code and returns its output.",
      schema: z.object({ code: z.string() }),
    },
  );

function refuseWithoutReasoning(request: RecordedRequest) {
  const missing = (request.body?.messages ?? []).some(
    (message: Record<string, unknown>) =>
      message.role === "assistant" &&
      message.tool_calls !== undefined &&
      typeof message.reasoning_content !== "string",
  );
  return missing
    ? {
        kind: "error" as const,
        status: 400,
        message: "The reasoning_content in the thinking mode must be passed back to the API.",
        type: "invalid_request_error",
      }
    : undefined;
}

describe("actor with a reasoning model and a tool", () => {
  it("completes its second step with the reasoning sent back, keeps it apart, and bills the reasoning", async () => {
    await using server = await startScriptedOpenAIServer();
    const models = createModels(
      parseModelsConfig({
        roles: {
          actor: {
            baseUrl: server.url,
            model: "deepseek-reasoner",
            maxRetries: 0,
            prices: { input: 1, output: 2 },
          },
        },
      }),
    );
    const actor = createActor({
      models,
      tools: () => ({ tools: [multiplier()] }),
      redact: (text) => text,
    });
    server.handle((recorded) => refuseWithoutReasoning(recorded));
    server.reply(
      {
        kind: "chat",
        content: null,
        reasoning: "6 * 7 is probably 42, but I should check with code.",
        toolCalls: [{ id: "call_1", name: "code_interpreter", arguments: { code: "print(6 * 7)" } }],
        rawUsage: {
          prompt_tokens: 500,
          completion_tokens: 40,
          completion_tokens_details: { reasoning_tokens: 300 },
        },
      },
      {
        kind: "chat",
        content: "The code printed 42. \\boxed{42}",
        reasoning: "Confirmed.",
        rawUsage: { prompt_tokens: 600, completion_tokens: 20, total_tokens: 700 },
      },
    );
    const trajectory = await actor.rollout(request);
    expect(trajectory).toMatchObject({ stopReason: "answered", finalAnswer: "42" });
    const chats = server.requests.filter((entry) => entry.path === "/chat/completions");
    expect(chats).toHaveLength(2);
    expect(chats[1]!.reply?.kind).toBe("chat");
    const sentBack = chats[1]!.body.messages.find(
      (message: { role: string }) => message.role === "assistant",
    );
    expect(sentBack.reasoning_content).toBe("6 * 7 is probably 42, but I should check with code.");

    const assistants = trajectory.messages.filter((message) => message.role === "assistant");
    expect(assistants.map((message) => message.reasoning)).toEqual([
      "6 * 7 is probably 42, but I should check with code.",
      "Confirmed.",
    ]);
    expect(assistants[0]!.content).toBe("");
    // Billed output: (40 + 300) reasoning beside the completion, then 700 - 600 from the total.
    expect(trajectory.usage).toMatchObject({ calls: 2, inputTokens: 1100, outputTokens: 440 });
    expect(trajectory.usage.costUsd).toBeCloseTo((1100 * 1 + 440 * 2) / 1e6, 12);
  });

  it("counts billed output against the rollout's token limit without the models' tracker too", async () => {
    await using server = await startScriptedOpenAIServer();
    const models = createModels(
      parseModelsConfig({ roles: { actor: { baseUrl: server.url, model: "r", maxRetries: 0 } } }),
    );
    const actor = createActor({
      // Only chat(): the trajectory's usage comes from the responses themselves.
      models: { chat: (role, options) => models.chat(role, options) },
      tools: () => ({ tools: [multiplier()] }),
      config: { maxTokens: 2000 },
      redact: (text) => text,
    });
    server.reply({
      kind: "chat",
      content: null,
      reasoning: "long thought",
      toolCalls: [{ name: "code_interpreter", arguments: { code: "print(6 * 7)" } }],
      rawUsage: {
        prompt_tokens: 100,
        completion_tokens: 10,
        completion_tokens_details: { reasoning_tokens: 5000 },
      },
    });
    const trajectory = await actor.rollout(request);
    expect(trajectory.usage.outputTokens).toBe(5010);
    expect(trajectory.stopReason).toBe("max_tokens");
  });
});
