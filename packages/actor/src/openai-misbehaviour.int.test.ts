// The agent loop through the real stack — @tfgrpo/models' ChatOpenAI over HTTP — against a scripted
// OpenAI-compatible server that misbehaves on purpose: malformed tool calls, loops, never answering, hanging, 500s.
import { tool } from "@langchain/core/tools";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import { type RecordedRequest, startScriptedOpenAIServer } from "@tfgrpo/models/testing";
import type { RolloutRequest } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ActorConfigInput } from "./actor-config.js";
import { createActor } from "./create-actor.js";

const request: RolloutRequest = {
  runId: "run-http",
  task: { id: "t-http", domain: "math", question: "What is 6 * 7?" },
  groupId: "g",
  attempt: 0,
  library: null,
};

function multiplier() {
  return tool(
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
}

async function setup(config: ActorConfigInput = {}) {
  const server = await startScriptedOpenAIServer();
  const models = createModels(
    parseModelsConfig({
      roles: {
        actor: {
          baseUrl: server.url,
          model: "scripted-actor",
          maxRetries: 0,
          prices: { input: 1, output: 2 },
        },
      },
    }),
  );
  const actor = createActor({
    models,
    tools: () => ({ tools: [multiplier()] }),
    config,
    redact: (text) => text,
  });
  return { server, actor, models };
}

const chats = (requests: RecordedRequest[]) => requests.filter((entry) => entry.path === "/chat/completions");

describe("actor over HTTP with a misbehaving model", () => {
  it("answers a malformed tool call with an error and keeps the history valid for the provider", async () => {
    const { server, actor } = await setup();
    await using _server = server;
    server.reply(
      {
        kind: "chat",
        content: null,
        toolCalls: [
          { id: "call_good", name: "code_interpreter", arguments: { code: "print(6 * 7)" } },
          { id: "call_bad", name: "code_interpreter", arguments: '{"code": "print(6 *' },
        ],
        usage: { promptTokens: 1000, completionTokens: 50, cachedTokens: 400 },
      },
      {
        kind: "chat",
        content: "Computed 42. \\boxed{42}",
        usage: { promptTokens: 1200, completionTokens: 30 },
      },
    );
    const trajectory = await actor.rollout(request);
    expect(trajectory).toMatchObject({ stopReason: "answered", finalAnswer: "42", model: "scripted-actor" });
    expect(trajectory.toolCalls.map((call) => [call.id, call.output.trim(), call.error ?? null])).toEqual([
      ["call_good", "42", null],
      ["call_bad", expect.stringMatching(/^Error: arguments are not valid JSON/), expect.any(String)],
    ]);
    // Usage priced by the models config: (1000 + 1200) input at $1/M, (50 + 30) output at $2/M.
    expect(trajectory.usage).toMatchObject({
      calls: 2,
      inputTokens: 2200,
      cachedInputTokens: 400,
      outputTokens: 80,
    });
    expect(trajectory.usage.costUsd).toBeCloseTo((2200 * 1 + 80 * 2) / 1e6, 12);

    const second = chats(server.requests)[1]!.body;
    const assistant = second.messages.find((message: { role: string }) => message.role === "assistant");
    expect(assistant.tool_calls.map((call: { id: string }) => call.id)).toEqual(["call_good", "call_bad"]);
    expect(assistant.tool_calls[1].function.arguments).toBe('{"code": "print(6 *');
    const toolIds = second.messages
      .filter((message: { role: string }) => message.role === "tool")
      .map((message: { tool_call_id: string }) => message.tool_call_id);
    expect(toolIds).toEqual(["call_good", "call_bad"]);
    // The request carries the sampling settings.
    expect(chats(server.requests)[0]!.body).toMatchObject({ temperature: 0.7, seed: expect.any(Number) });
    expect(
      chats(server.requests)[0]!.body.tools.map(
        (entry: { function: { name: string } }) => entry.function.name,
      ),
    ).toEqual(["code_interpreter"]);
  });

  it("pairs calls and results when the provider sends empty or repeated tool-call ids", async () => {
    const { server, actor } = await setup();
    await using _server = server;
    server.reply(
      {
        kind: "chat",
        content: null,
        toolCalls: [
          { id: "", name: "code_interpreter", arguments: { code: "print(6 * 7)" } },
          { id: "", name: "code_interpreter", arguments: { code: "print(40 + 2)" } },
        ],
      },
      { kind: "chat", content: "Both give 42. \\boxed{42}" },
    );
    const trajectory = await actor.rollout(request);
    expect(trajectory).toMatchObject({ stopReason: "answered", finalAnswer: "42" });
    const ids = trajectory.toolCalls.map((call) => call.id);
    expect(ids.every((id) => id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(2);
    const second = chats(server.requests)[1]!.body;
    const assistant = second.messages.find((message: { role: string }) => message.role === "assistant");
    const toolIds = second.messages
      .filter((message: { role: string }) => message.role === "tool")
      .map((message: { tool_call_id: string }) => message.tool_call_id);
    expect(assistant.tool_calls.map((call: { id: string }) => call.id)).toEqual(ids);
    expect(toolIds).toEqual(ids);
  });

  it("stops a model that loops on the same call", async () => {
    const { server, actor } = await setup();
    await using _server = server;
    server.handle(() => ({
      kind: "chat",
      toolCalls: [{ name: "code_interpreter", arguments: { code: "print(6 * 7)" } }],
    }));
    const trajectory = await actor.rollout(request);
    expect(trajectory.stopReason).toBe("no_answer");
    expect(trajectory.error).toMatch(/^loop: /);
  });

  it("stops a model that never answers at the tool-call limit", async () => {
    const { server, actor } = await setup({ maxToolCalls: 3 });
    await using _server = server;
    let turn = 0;
    server.handle(() => ({
      kind: "chat",
      toolCalls: [{ name: "code_interpreter", arguments: { code: `print(${++turn} * 2)` } }],
    }));
    const trajectory = await actor.rollout(request);
    expect(trajectory.stopReason).toBe("max_tool_calls");
    expect(trajectory.toolCalls).toHaveLength(3);
    expect(trajectory.finalAnswer).toBeNull();
  });

  it("ends at the timeout when the provider hangs", async () => {
    const { server, actor } = await setup({ timeoutMs: 300 });
    await using _server = server;
    server.reply({ kind: "hang" });
    const trajectory = await actor.rollout(request);
    expect(trajectory.stopReason).toBe("timeout");
  });

  it("records a provider error as model_error with the status, never an unhandled error", async () => {
    const { server, actor } = await setup();
    await using _server = server;
    server.reply({ kind: "error", status: 500, message: "upstream exploded" });
    const trajectory = await actor.rollout(request);
    expect(trajectory.stopReason).toBe("model_error");
    expect(trajectory.error).toMatch(/500/);
  });

  it("records a garbled response body as model_error", async () => {
    const { server, actor } = await setup();
    await using _server = server;
    server.reply({
      kind: "raw",
      status: 200,
      body: '{"choices": [{"message": ',
      contentType: "application/json",
    });
    const trajectory = await actor.rollout(request);
    expect(trajectory.stopReason).toBe("model_error");
  });
});
