import { makeCodeTrajectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { renderReasoning } from "./render-reasoning.js";
import { renderTrajectory } from "./render-trajectory.js";

describe("reasoning in the critic's view of a trajectory", () => {
  it("is shown as the model's reasoning, apart from what it said and never as the final answer", () => {
    const base = makeCodeTrajectory({ code: { source: "print(8)", stdout: "8\n" } });
    const messages = base.messages.map((message, index) =>
      message.role === "assistant" && index === base.messages.findIndex((other) => other.role === "assistant")
        ? { ...message, reasoning: "Maybe the answer is 99, but let me check with code." }
        : message,
    );
    const text = renderTrajectory({ ...base, messages, finalAnswer: "8" });
    const reasoningAt = text.indexOf(
      "Reasoning (the model's own thinking, not its answer):\nMaybe the answer is 99",
    );
    const step1 = text.indexOf("Step 1 (assistant):");
    expect(step1).toBeGreaterThanOrEqual(0);
    expect(reasoningAt).toBeGreaterThan(step1);
    expect(text.indexOf("(end of reasoning)\nLet me count with code.")).toBeGreaterThan(reasoningAt);
    expect(text).toMatch(/Final answer: 8\n/);
    expect(text).not.toMatch(/Final answer: 99/);
  });

  it("shows nothing for no reasoning and keeps both ends of a long one", () => {
    expect(renderReasoning(undefined)).toEqual([]);
    expect(renderReasoning("  ")).toEqual([]);
    const long = `START ${"x".repeat(10_000)} END`;
    const [, shown] = renderReasoning(long, 1000);
    expect(shown).toMatch(/^START/);
    expect(shown).toMatch(/END$/);
    expect(shown).toMatch(/characters of reasoning cut/);
  });
});
