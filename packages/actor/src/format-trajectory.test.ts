import type { Trajectory } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { formatTrajectory } from "./format-trajectory.js";

const trajectory: Trajectory = {
  id: "traj-1",
  runId: "solve",
  taskId: "t1",
  groupId: "g",
  attempt: 0,
  domain: "math",
  libraryVersion: 3,
  model: "sim-actor",
  messages: [
    { role: "system", content: "You are a solver.\n# Learned Experiences\n[G3]. Check endpoints." },
    { role: "user", content: "How many integers from 3 to 9?" },
    {
      role: "assistant",
      content: "Counting with [G3].",
      toolCalls: [{ id: "c1", name: "code_interpreter", arguments: '{"code":"print(len(range(3, 10)))"}' }],
    },
    { role: "tool", content: '{"stdout":"7\\n"}', toolCallId: "c1", name: "code_interpreter" },
    { role: "assistant", content: "So \\boxed{7}." },
  ],
  toolCalls: [
    {
      id: "c1",
      name: "code_interpreter",
      input: {},
      output: '{"stdout":"7\\n"}',
      truncated: false,
      durationMs: 41.6,
    },
  ],
  finalAnswer: "7",
  experiencesShown: ["G3"],
  experiencesCited: ["G3"],
  usage: {
    calls: 2,
    inputTokens: 900,
    cachedInputTokens: 300,
    outputTokens: 60,
    costUsd: 0.0004,
    latencyMs: 1500,
  },
  latencyMs: 2100,
  stopReason: "answered",
};

describe("formatTrajectory", () => {
  it("prints the exchange in order, then outcome, experiences and cost", () => {
    const text = formatTrajectory(trajectory);
    const order = [
      "task       t1 (math)",
      "library    math@v3, 1 experiences shown",
      "── system",
      `(${trajectory.messages[0]!.content.length} characters; --show-prompt prints it)`,
      "How many integers from 3 to 9?",
      "── assistant, step 1",
      '  → code_interpreter {"code":"print(len(range(3, 10)))"}',
      "── tool code_interpreter (42 ms)",
      "── assistant, step 2",
      "answer     7",
      "stop       answered",
      "cited      G3",
      "usage      2 model calls, 900 input tokens (300 cached), 60 output tokens, $0.000400",
      "time       2.10 s (model 1.50 s)",
    ].map((marker) => text.indexOf(marker));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).not.toContain("[G3]. Check endpoints.");
  });

  it("prints the system prompt on request and the error of an unfinished rollout", () => {
    const text = formatTrajectory(
      { ...trajectory, finalAnswer: null, stopReason: "max_steps", error: "the model made 3 calls" },
      { showSystemPrompt: true },
    );
    expect(text).toContain("[G3]. Check endpoints.");
    expect(text).toContain("answer     (none)");
    expect(text).toContain("stop       max_steps: the model made 3 calls");
  });
});
