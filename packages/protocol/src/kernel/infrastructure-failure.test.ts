import { describe, expect, it } from "vitest";
import type { StopReason } from "../schemas/trajectory.js";
import { isInfrastructureFailure, type RolloutOutcome } from "./infrastructure-failure.js";

const rollout = (stopReason: StopReason, extra: Partial<RolloutOutcome> = {}): RolloutOutcome => ({
  stopReason,
  messages: [],
  toolCalls: [],
  ...extra,
});
const answered = { messages: [{ role: "assistant" as const, content: "thinking" }] };

describe("isInfrastructureFailure", () => {
  it("is true for model errors, infrastructure errors and budget cut-offs", () => {
    for (const reason of ["model_error", "error", "budget", "environment_error"] as const)
      expect(isInfrastructureFailure(rollout(reason, answered))).toBe(true);
  });

  it("is false for every way a rollout ends on the task itself", () => {
    for (const reason of ["answered", "max_steps", "max_tool_calls", "max_tokens", "no_answer"] as const)
      expect(isInfrastructureFailure(rollout(reason, answered))).toBe(false);
  });

  it("counts a timeout against the provider only when the model never answered", () => {
    expect(isInfrastructureFailure(rollout("timeout"))).toBe(true);
    expect(isInfrastructureFailure(rollout("timeout", answered))).toBe(false);
  });

  it("is true when a tool failed because its sandbox is unavailable, not when the code failed", () => {
    const call = (error?: string) => ({
      id: "c1",
      name: "python",
      input: {},
      output: "",
      truncated: false,
      durationMs: 1,
      ...(error ? { error } : {}),
    });
    expect(
      isInfrastructureFailure(
        rollout("answered", { toolCalls: [call("sandbox_unavailable: could not start bwrap")] }),
      ),
    ).toBe(true);
    expect(isInfrastructureFailure(rollout("answered", { toolCalls: [call("ZeroDivisionError")] }))).toBe(
      false,
    );
    expect(isInfrastructureFailure(rollout("answered", { toolCalls: [call()] }))).toBe(false);
  });
});
