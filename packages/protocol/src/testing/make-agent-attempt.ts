import type { AgentAttempt } from "../agent/agent-attempt.js";

/** An offline attempt of a team's agent for tests: one lesson shown, seed 5, not used yet, unless overridden. */
export function makeAgentAttempt(overrides: Partial<AgentAttempt> = {}): AgentAttempt {
  return {
    taskId: "t",
    attempt: 0,
    promptBlock: "[G7]. An offline lesson.",
    shownIds: ["G7"],
    seed: 5,
    temperature: 0.7,
    used: false,
    ...overrides,
  };
}
