import { emptyUsageTotals, TfgrpoError, type Trajectory } from "@tfgrpo/protocol";
import { expect } from "vitest";

/** A valid trajectory with overridable fields, for tests of anything that stores or reads trajectories. */
export function makeTrajectory(overrides: Partial<Trajectory> & { id: string }): Trajectory {
  return {
    runId: "run-1",
    taskId: "task-1",
    groupId: "group-1",
    attempt: 0,
    messages: [
      { role: "user", content: "What is 2 + 2?" },
      { role: "assistant", content: "It is \\boxed{4}." },
    ],
    toolCalls: [],
    finalAnswer: "4",
    experiencesShown: [],
    experiencesCited: [],
    usage: { ...emptyUsageTotals(), calls: 1, inputTokens: 12, outputTokens: 6 },
    latencyMs: 5,
    stopReason: "answered",
    ...overrides,
  };
}

/** Awaits a promise that must reject with a TfgrpoError and returns the error for closer checks. */
export async function expectTfgrpoError(promise: Promise<unknown>, code: string): Promise<TfgrpoError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected the call to fail").toBeDefined();
  expect(TfgrpoError.isInstance(caught), `expected a TfgrpoError, got ${String(caught)}`).toBe(true);
  const error = caught as TfgrpoError;
  expect(error.code, error.message).toBe(code);
  return error;
}
