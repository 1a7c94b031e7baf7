import { experienceRunner } from "@tfgrpo/openai-agents";
import { runAgentAttempt } from "@tfgrpo/protocol";
import { makeAgentAttempt } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { loadOpenAIAgent, runOpenAIAgent } from "./openai-agents-agent-run.js";

/** An object of the shape an @openai/agents Agent has. */
const agentLike = { name: "solver", handoffs: [], clone: () => agentLike, asTool: () => ({}) };

describe("loadOpenAIAgent", () => {
  it("takes an Agent with its experienceRunner, and names the missing runner in one line", () => {
    const experience = experienceRunner({ run: async () => ({ history: [], state: {} }), domain: "math" });
    expect(loadOpenAIAgent({ experience }, agentLike, "a.mjs")).toMatchObject({ kind: "openai-agents" });
    expect(loadOpenAIAgent({}, { name: "not an agent" }, "a.mjs")).toBeUndefined();
    expect(() => loadOpenAIAgent({}, agentLike, "a.mjs")).toThrow(
      /^agent module a\.mjs exports an @openai\/agents Agent: export the experienceRunner that runs it as `experience` too/,
    );
  });
});

describe("runOpenAIAgent", () => {
  it("records the run's history, its tool calls with their results, its answer and usage", async () => {
    const history = [
      { role: "user", content: "What is 6 * 7?" },
      { type: "function_call", callId: "c1", name: "py", arguments: '{"code":"print(6*7)"}' },
      { type: "function_call_result", callId: "c1", name: "py", output: { type: "text", text: "42" } },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "\\boxed{42}" }] },
    ];
    const usage = {
      requests: 2,
      inputTokens: 30,
      outputTokens: 9,
      inputTokensDetails: [{ cached_tokens: 4 }],
    };
    const experience = experienceRunner({
      run: async () => ({ history, finalOutput: "\\boxed{42}", state: { usage } }),
      domain: "math",
    });
    const { agent } = loadOpenAIAgent({ experience }, agentLike, "a.mjs")!;
    const { record, history: next } = await runAgentAttempt(makeAgentAttempt(), () =>
      runOpenAIAgent(agent, {
        input: "What is 6 * 7?",
        signal: new AbortController().signal,
        storedChars: 1,
      }),
    );
    expect(record.text).toBe("\\boxed{42}");
    expect(record.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(record.toolCalls).toEqual([
      { id: "c1", name: "py", input: { code: "print(6*7)" }, output: "4", truncated: true, durationMs: 0 },
    ]);
    expect(record.usage).toEqual({ calls: 2, inputTokens: 30, cachedInputTokens: 4, outputTokens: 9 });
    // The run's history is the next turn's input, as the SDK keeps it.
    expect(next).toEqual(history);
  });

  it("refuses an attempt that stopped for a tool approval", async () => {
    const experience = experienceRunner({
      run: async () => ({ history: [{ role: "user", content: "q" }], interruptions: [{}], state: {} }),
      domain: "math",
    });
    const { agent } = loadOpenAIAgent({ experience }, agentLike, "a.mjs")!;
    await expect(
      runAgentAttempt(makeAgentAttempt(), () =>
        runOpenAIAgent(agent, { input: "q", signal: new AbortController().signal, storedChars: 100 }),
      ),
    ).rejects.toThrow(/stopped for a tool approval/);
  });
});
