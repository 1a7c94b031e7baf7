import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { type LibrarySnapshot, type RolloutRequest, TfgrpoError, trajectorySchema } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ActorConfigInput } from "./actor-config.js";
import { type CreateActorOptions, createActor } from "./create-actor.js";
import { deriveSeed } from "./derive-seed.js";
import {
  type ChatScript,
  createHashedEmbed,
  createScriptedModels,
  finalMessage,
  realExperiences,
  toolCallMessage,
} from "./testing/index.js";

const question = "What is 6 * 7? Use the code interpreter.";
const request = (overrides: Partial<RolloutRequest> = {}): RolloutRequest => ({
  runId: "run-1",
  task: { id: "t1", domain: "math", question, answer: "42" },
  groupId: "g1",
  attempt: 2,
  library: { domain: "math", version: 3 },
  ...overrides,
});

const mathLibrary: LibrarySnapshot = { domain: "math", version: 3, experiences: realExperiences("math") };

/** A code interpreter stand-in: evaluates `print(<a> * <b>)`; the real sandbox is used in the integration tests. */
function fakeToolset(log: { closed: number; runs: string[] }, options: { hang?: boolean } = {}) {
  const codeInterpreter = tool(
    async ({ code }: { code: string }) => {
      log.runs.push(code);
      if (options.hang) await new Promise(() => {});
      const match = /print\((\d+)\s*\*\s*(\d+)\)/.exec(code);
      return match
        ? JSON.stringify({ stdout: `${Number(match[1]) * Number(match[2])}\n`, stderr: "", exitCode: 0 })
        : JSON.stringify({ stdout: "", stderr: "SyntaxError", exitCode: 1 });
    },
    {
      name: "code_interpreter",
      description: "Runs Python code in a sandbox and returns stdout, stderr and the exit code.",
      schema: z.object({ code: z.string() }),
    },
  );
  return {
    tools: [codeInterpreter],
    close: async () => {
      log.closed++;
    },
  };
}

function setup(script: ChatScript, config: ActorConfigInput = {}, extra: Partial<CreateActorOptions> = {}) {
  const models = createScriptedModels(script);
  const log = { closed: 0, runs: [] as string[] };
  let clock = 1_000;
  let ids = 0;
  const actor = createActor({
    models,
    tools: () => fakeToolset(log),
    library: async (domain, version) => (domain === "math" && version === 3 ? mathLibrary : null),
    config,
    now: () => (clock += 5),
    generateId: () => `traj-${++ids}`,
    redact: (text) => text.replaceAll("sk-secret-value-123", "[REDACTED]"),
    costUsd: (tokens) => tokens.inputTokens * 1e-6 + tokens.outputTokens * 2e-6,
    ...extra,
  });
  return { actor, models, log };
}

const lastText = (messages: BaseMessage[]) => String(messages.at(-1)?.content ?? "");

describe("createActor: embeddings off the critical path", () => {
  it("embeds the task beside the library's entries: the first rollout of a version waits for one round trip", async () => {
    const hashed = createHashedEmbed();
    let inFlight = 0;
    let mostInFlight = 0;
    const slowEmbed = async (texts: string[]) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return hashed.embed(texts);
    };
    const { actor } = setup(() => finalMessage("\\boxed{42}"), {}, { embed: slowEmbed });
    const prepared = await actor.preparePrompt(request());
    expect(prepared.selection.shown.length).toBeGreaterThan(0);
    expect(hashed.calls).toHaveLength(2);
    expect(mostInFlight).toBe(2);
  });
});

describe("createActor: a normal rollout", () => {
  it("calls the tool, answers with a box and records the whole trajectory", async () => {
    const { actor, models, log } = setup((_messages, call) =>
      call === 0
        ? toolCallMessage(
            [{ name: "code_interpreter", args: { code: "print(6 * 7)" } }],
            "Let me compute [G0].",
          )
        : finalMessage("Per [G0] and [G13] (and the unshown [G99]) the product is \\boxed{42}."),
    );
    const trajectory = await actor.rollout(request());
    expect(trajectorySchema.parse(trajectory)).toEqual(trajectory);
    expect(trajectory).toMatchObject({
      id: "traj-1",
      runId: "run-1",
      taskId: "t1",
      groupId: "g1",
      attempt: 2,
      domain: "math",
      libraryVersion: 3,
      model: "scripted-model",
      finalAnswer: "42",
      stopReason: "answered",
      experiencesCited: ["G0", "G13"],
    });
    expect(trajectory.error).toBeUndefined();
    expect(trajectory.experiencesShown).toEqual(mathLibrary.experiences.map((entry) => entry.id));
    expect(trajectory.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(trajectory.messages[1]!.content).toBe(question);
    expect(trajectory.messages[2]!.toolCalls).toEqual([
      { id: expect.any(String), name: "code_interpreter", arguments: '{"code":"print(6 * 7)"}' },
    ]);
    expect(trajectory.toolCalls).toEqual([
      {
        id: trajectory.messages[2]!.toolCalls![0]!.id,
        name: "code_interpreter",
        input: { code: "print(6 * 7)" },
        output: JSON.stringify({ stdout: "42\n", stderr: "", exitCode: 0 }),
        truncated: false,
        durationMs: 5,
      },
    ]);
    expect(trajectory.usage).toEqual({
      calls: 2,
      inputTokens: 250,
      cachedInputTokens: 0,
      outputTokens: 60,
      costUsd: expect.closeTo(250e-6 + 120e-6, 12),
      latencyMs: 10,
    });
    expect(trajectory.latencyMs).toBeGreaterThan(0);
    expect(log).toEqual({ closed: 1, runs: ["print(6 * 7)"] });

    // The model saw the system prompt with every shown entry, the question verbatim, the tool bound.
    const first = models.calls[0]!;
    expect(first.tools).toEqual(["code_interpreter"]);
    expect(first.messages[1]!.content).toBe(question);
    const system = String(first.messages[0]!.content);
    for (const entry of mathLibrary.experiences) expect(system).toContain(`[${entry.id}]. `);
    expect(first.options).toEqual({ temperature: 0.7, seed: deriveSeed("run-1", "t1", 2) });
  });

  it("uses the evaluation temperature for eval and validate, and a given seed and temperature as is", async () => {
    const { actor, models } = setup(() => finalMessage("\\boxed{1}"));
    await actor.rollout(request({ purpose: "eval" }));
    await actor.rollout(request({ purpose: "validate", seed: 7 }));
    await actor.rollout(request({ purpose: "train", temperature: 1.1 }));
    expect(models.calls.map((call) => [call.options.temperature, call.options.seed])).toEqual([
      [0.3, deriveSeed("run-1", "t1", 2)],
      [0.3, 7],
      [1.1, deriveSeed("run-1", "t1", 2)],
    ]);
  });

  it("caps output tokens per call only when configured", async () => {
    const { actor, models } = setup(() => finalMessage("\\boxed{1}"), { maxOutputTokensPerCall: 512 });
    await actor.rollout(request());
    expect(models.calls[0]!.options.maxTokens).toBe(512);
  });

  it("runs direct mode without tools and without a library", async () => {
    const { actor, models, log } = setup(() => finalMessage("Thinking only: \\boxed{42}"));
    const trajectory = await actor.rollout(request({ mode: "direct", library: null }));
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.experiencesShown).toEqual([]);
    expect(trajectory.libraryVersion).toBeNull();
    expect(models.calls[0]!.tools).toEqual([]);
    const system = String(models.calls[0]!.messages[0]!.content);
    expect(system).toContain("No tools are available");
    expect(system).not.toContain("# Learned Experiences");
    expect(log.closed).toBe(0);
  });

  it("takes the boxed answer of an earlier message when the final one only closes", async () => {
    const { actor } = setup((_messages, call) =>
      call === 0
        ? toolCallMessage(
            [{ name: "code_interpreter", args: { code: "print(6 * 7)" } }],
            "I expect \\boxed{42}.",
          )
        : finalMessage("Verified."),
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.finalAnswer).toBe("42");
  });

  it("scrubs secrets from everything it records", async () => {
    const { actor } = setup((_messages, call) =>
      call === 0
        ? toolCallMessage([
            { name: "code_interpreter", args: { code: "print(6 * 7) # sk-secret-value-123" } },
          ])
        : finalMessage("The key was sk-secret-value-123, answer \\boxed{42}"),
    );
    const trajectory = await actor.rollout(request());
    expect(JSON.stringify(trajectory)).not.toContain("sk-secret-value-123");
    expect(trajectory.toolCalls[0]!.input).toEqual({ code: "print(6 * 7) # [REDACTED]" });
  });
});

describe("createActor: misbehaving models end with a clear reason", () => {
  it("answers malformed and unknown tool calls with errors, keeps the raw calls in the history", async () => {
    const { actor, models } = setup((_messages, call) => {
      if (call === 0) {
        return new AIMessage({
          content: "",
          tool_calls: [
            { id: "call_ok", name: "code_interpreter", args: { code: "print(6 * 7)" }, type: "tool_call" },
          ],
          invalid_tool_calls: [
            {
              id: "call_bad",
              name: "code_interpreter",
              args: '{"code": "print(1',
              error: "Unexpected end of JSON",
            },
          ],
          additional_kwargs: {},
        });
      }
      if (call === 1) return toolCallMessage([{ name: "rm_rf", args: { path: "/" } }]);
      return finalMessage("\\boxed{42}");
    });
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.toolCalls.map((call) => [call.id, call.error])).toEqual([
      ["call_ok", undefined],
      ["call_bad", expect.stringMatching(/not valid JSON \(Unexpected end of JSON\)/)],
      [expect.any(String), 'unknown tool "rm_rf"; available: code_interpreter'],
    ]);
    expect(trajectory.toolCalls[1]!.input).toBe('{"code": "print(1');
    // The second call's history answers every call of the first, malformed one included.
    const history = models.calls[1]!.messages;
    const assistant = history[2] as AIMessage;
    expect(assistant.tool_calls).toEqual([]);
    expect((assistant.additional_kwargs.tool_calls as { id: string }[]).map((call) => call.id)).toEqual([
      "call_ok",
      "call_bad",
    ]);
    expect(history.slice(3).map((message) => (message as { tool_call_id?: string }).tool_call_id)).toEqual([
      "call_ok",
      "call_bad",
    ]);
  });

  it("stops a loop of identical tool calls", async () => {
    const { actor, log } = setup(() =>
      toolCallMessage([{ name: "code_interpreter", args: { code: "print(6 * 7)" } }]),
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("no_answer");
    expect(trajectory.error).toMatch(/loop: the model made the identical code_interpreter call 3 times/);
    expect(trajectory.finalAnswer).toBeNull();
    expect(log.runs).toHaveLength(2);
    expect(log.closed).toBe(1);
  });

  it("an identical call whose result changed in between is not a loop (a stateful tool: tests rerun after an edit)", async () => {
    let edits = 0;
    const runTests = tool(async () => `visible tests: ${edits}/4 passed`, {
      name: "run_tests",
      description: "Runs the visible tests of the workspace's program.",
      schema: z.object({}),
    });
    const edit = tool(
      async () => {
        edits++;
        return "edited";
      },
      { name: "edit_file", description: "Edits the program.", schema: z.object({ n: z.number() }) },
    );
    const { actor, models } = setup(
      (_messages, call) =>
        call < 4
          ? toolCallMessage([
              { name: "edit_file", args: { n: call } },
              { name: "run_tests", args: {} },
            ])
          : finalMessage("\\boxed{fixed}"),
      {},
      { tools: () => ({ tools: [runTests, edit], close: async () => {} }) },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.toolCalls.filter((call) => call.name === "run_tests")).toHaveLength(4);
    const outputs = models.calls.at(-1)!.messages.map((message) => String(message.content));
    expect(outputs.some((text) => text.startsWith("Note: you already made this exact call"))).toBe(false);
  });

  it("an identical call with the same result after a new call in between is not a loop either (edits that change nothing)", async () => {
    const runTests = tool(async () => "visible tests: 1/3 passed", {
      name: "run_tests",
      description: "Runs the visible tests of the workspace's program.",
      schema: z.object({}),
    });
    const edit = tool(async () => "edited", {
      name: "edit_file",
      description: "Edits the program.",
      schema: z.object({ n: z.number() }),
    });
    const { actor } = setup(
      (_messages, call) =>
        call < 5
          ? toolCallMessage([
              { name: "edit_file", args: { n: call } },
              { name: "run_tests", args: {} },
            ])
          : finalMessage("\\boxed{no fix}"),
      {},
      { tools: () => ({ tools: [runTests, edit], close: async () => {} }) },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.toolCalls.filter((call) => call.name === "run_tests")).toHaveLength(5);
  });

  it("stops a model that keeps calling tools after the tool-call limit", async () => {
    const { actor, models } = setup(
      (_messages, call) =>
        toolCallMessage([{ name: "code_interpreter", args: { code: `print(${call} * 2)` } }]),
      { maxToolCalls: 2, maxSteps: 20 },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("max_tool_calls");
    expect(trajectory.error).toMatch(/after the limit of 2 tool calls/);
    expect(trajectory.toolCalls).toHaveLength(2);
    expect(models.calls).toHaveLength(4);
    expect(lastText(models.calls[2]!.messages)).toMatch(/last of 2 allowed tool calls/);
    expect(lastText(models.calls[3]!.messages)).toMatch(/Tool call refused/);
  });

  it("stops at the step limit, after telling the model on its last step", async () => {
    const { actor, models } = setup(
      (_messages, call) =>
        toolCallMessage([{ name: "code_interpreter", args: { code: `print(${call} * 3)` } }]),
      { maxSteps: 3, maxToolCalls: 50 },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("max_steps");
    expect(trajectory.error).toMatch(/3 calls without a final answer/);
    expect(models.calls).toHaveLength(3);
    expect(lastText(models.calls[2]!.messages)).toMatch(/reached the step limit/);
    expect(trajectory.messages.filter((message) => message.role === "user")).toHaveLength(2);
  });

  it("reports a final message without a box as no_answer", async () => {
    const { actor } = setup(() => finalMessage("I think it is about 40."));
    const trajectory = await actor.rollout(request());
    expect(trajectory).toMatchObject({ stopReason: "no_answer", finalAnswer: null });
    expect(trajectory.error).toMatch(/without a final answer in \\boxed/);
  });

  it("reports an answer cut off at the output limit as max_tokens", async () => {
    const { actor } = setup(
      () =>
        new AIMessage({
          content: "Long reasoning that never ends",
          response_metadata: { finish_reason: "length" },
        }),
    );
    expect((await actor.rollout(request())).stopReason).toBe("max_tokens");
  });

  it("stops when the rollout's token budget is spent", async () => {
    const { actor } = setup(
      (_messages, call) =>
        toolCallMessage([{ name: "code_interpreter", args: { code: `print(${call} * 5)` } }], "", {
          input: 3000,
          output: 500,
        }),
      { maxTokens: 7000 },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("max_tokens");
    expect(trajectory.usage.calls).toBe(2);
    expect(trajectory.error).toMatch(/7000 tokens \(limit 7000\)/);
  });

  it("records a failing model call as model_error and a spent budget as budget", async () => {
    const failing = setup(() => {
      throw new TfgrpoError(
        "model_error",
        "actor model: HTTP 500 from http://127.0.0.1:1/v1/chat/completions",
      );
    });
    const trajectory = await failing.actor.rollout(request());
    expect(trajectory).toMatchObject({ stopReason: "model_error", finalAnswer: null });
    expect(trajectory.error).toMatch(/HTTP 500/);
    expect(trajectory.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(failing.log.closed).toBe(1);

    const broke = setup(() => {
      throw new TfgrpoError("budget_exceeded", "run budget of $1.00 spent");
    });
    expect((await broke.actor.rollout(request())).stopReason).toBe("budget");
  });

  it("ends a model that never answers at the timeout", async () => {
    const { actor } = setup(
      (_messages, _call, signal) =>
        new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted")))),
      { timeoutMs: 50 },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("timeout");
    expect(trajectory.error).toMatch(/50 ms time limit/);
  });

  it("ends a tool that ignores the abort signal at the timeout, and still closes the toolset", async () => {
    const log = { closed: 0, runs: [] as string[] };
    const { actor } = setup(
      () => toolCallMessage([{ name: "code_interpreter", args: { code: "while True: pass" } }]),
      { timeoutMs: 50 },
      { tools: () => fakeToolset(log, { hang: true }) },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("timeout");
    expect(trajectory.messages.at(-1)!.role).toBe("assistant");
    expect(log.closed).toBe(1);
  });

  it("ends a rollout the caller aborts, as an error", async () => {
    const controller = new AbortController();
    const { actor } = setup((_messages, _call, signal) => {
      controller.abort(new Error("worker shutting down"));
      return new Promise((_, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener("abort", () => reject(signal.reason));
      });
    });
    const trajectory = await actor.rollout(request(), { signal: controller.signal });
    expect(trajectory.stopReason).toBe("error");
    expect(trajectory.error).toMatch(/worker shutting down/);
  });
});

describe("createActor: libraries and retrieval", () => {
  it("throws for a library version that does not exist, and for a bad request", async () => {
    const { actor } = setup(() => finalMessage("\\boxed{1}"));
    await expect(actor.rollout(request({ library: { domain: "math", version: 9 } }))).rejects.toThrow(
      /library math@v9 does not exist/,
    );
    await expect(actor.rollout({ ...request(), attempt: -1 })).rejects.toThrow(/rollout request: attempt/);
  });

  it("shows the retrieved top-k of a large library, within budget, and the prompt matches the selection", async () => {
    const texts = [...realExperiences("math"), ...realExperiences("web")].map((entry) => entry.text);
    const big: LibrarySnapshot = {
      domain: "math",
      version: 5,
      experiences: Array.from({ length: 300 }, (_, index) =>
        makeExperience({
          id: `G${index}`,
          text: `${texts[index % texts.length]} (${Math.floor(index / texts.length)})`,
          status: index === 299 ? "candidate" : "active",
        }),
      ),
    };
    const hashed = createHashedEmbed();
    const { actor, models } = setup(
      () => finalMessage("Using [G1] \\boxed{1}"),
      {},
      {
        library: async () => big,
        embed: hashed.embed,
      },
    );
    const trigQuestion = "Trigonometric simplification: find complementary angle pairs in sin 10 sin 80.";
    const rolloutRequest = request({
      library: { domain: "math", version: 5 },
      task: { id: "trig", domain: "math", question: trigQuestion },
    });
    const prepared = await actor.preparePrompt(rolloutRequest);
    expect(prepared.selection.mode).toBe("top-k");
    expect(prepared.selection.tokens).toBeLessThanOrEqual(1500);
    expect(prepared.selection.shown.map((entry) => entry.id)).toContain("G299");
    expect(
      prepared.selection.shown.some((entry) => entry.text.startsWith("Trigonometric simplification")),
    ).toBe(true);

    const trajectory = await actor.rollout(rolloutRequest);
    const system = String(models.calls[0]!.messages[0]!.content);
    expect(system).toBe(prepared.system);
    const start = system.indexOf("# Learned Experiences");
    const block = system.slice(start, system.indexOf("\n\n", start));
    expect(system).not.toContain("# Most Useful Experiences");
    const lineIds = [...block.matchAll(/^\[(G\d+)\]\. /gm)].map((match) => match[1]);
    expect(lineIds).toEqual(trajectory.experiencesShown);
    expect(lineIds).toEqual(prepared.selection.shown.map((entry) => entry.id));
    expect(trajectory.experiencesCited).toEqual(lineIds.includes("G1") ? ["G1"] : []);
    // Library entries are embedded once, the task once per distinct question (its call starts beside the library's).
    expect(hashed.calls.map((call) => call.length).sort((a, b) => b - a)).toEqual([256, 44, 1]);
  });

  it("falls back to utility ranking when the embedder fails, and tells why", async () => {
    const events: string[] = [];
    const { actor } = setup(
      () => finalMessage("\\boxed{1}"),
      {},
      {
        embed: async () => {
          throw new Error("embedder unreachable");
        },
        onEvent: (event) => {
          if (event.type === "retrieval-degraded") events.push(event.reason);
        },
      },
    );
    const trajectory = await actor.rollout(request());
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.experiencesShown).toHaveLength(27);
    expect(events).toEqual(["embedding library math@3 failed: embedder unreachable"]);
  });
});
