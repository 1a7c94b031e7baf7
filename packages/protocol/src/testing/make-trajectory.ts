import { type Trajectory, trajectorySchema } from "../schemas/trajectory.js";
import { emptyUsageTotals } from "../schemas/usage.js";

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

export interface CodeTrajectoryInput {
  id?: string;
  groupId?: string;
  taskId?: string;
  attempt?: number;
  question?: string;
  /** Python the rollout ran with the code interpreter, with its stdout. */
  code?: { source: string; stdout: string };
  /** Final assistant message (its `\boxed{}` is the answer). */
  final?: string;
  reward?: number;
  grade?: "pass" | "partial" | "fail";
  shown?: string[];
  cited?: string[];
}

/**
 * A schema-valid trajectory shaped like a math rollout of the actor: the question, an assistant turn calling the
 * code interpreter, the tool's JSON output, and a final message ending in `\boxed{}` (what critics read).
 */
export function makeCodeTrajectory(input: CodeTrajectoryInput = {}): Trajectory {
  const id = input.id ?? `tr-${input.attempt ?? 0}`;
  const question = input.question ?? "How many integers n satisfy 3 <= n <= 10?";
  const final = input.final ?? "Counting both endpoints gives 10 - 3 + 1 = 8. [G0]\n\n\\boxed{8}";
  const code = input.code ?? { source: "print(len(range(3, 11)))", stdout: "8\n" };
  const callId = `${id}-call-1`;
  const toolOutput = JSON.stringify({ stdout: code.stdout, stderr: "", exitCode: 0, killed: false });
  return trajectorySchema.parse(
    makeTrajectory({
      id,
      runId: "run-test",
      taskId: input.taskId ?? "task-1",
      groupId: input.groupId ?? "group-1",
      attempt: input.attempt ?? 0,
      messages: [
        { role: "system", content: "You are a careful problem solver.\n# Learned Experiences\n[G0]. ..." },
        { role: "user", content: question },
        {
          role: "assistant",
          content: "Let me count with code.",
          toolCalls: [
            { id: callId, name: "code_interpreter", arguments: JSON.stringify({ code: code.source }) },
          ],
        },
        { role: "tool", content: toolOutput, toolCallId: callId, name: "code_interpreter" },
        { role: "assistant", content: final },
      ],
      toolCalls: [
        {
          id: callId,
          name: "code_interpreter",
          input: { code: code.source },
          output: toolOutput,
          truncated: false,
          durationMs: 12,
        },
      ],
      finalAnswer: final,
      ...(input.reward !== undefined ? { reward: input.reward } : {}),
      ...(input.grade !== undefined
        ? { rewardInfo: { grade: input.grade, method: "math", extracted: null } }
        : {}),
      experiencesShown: input.shown ?? ["G0"],
      experiencesCited: input.cited ?? ["G0"],
      usage: emptyUsageTotals(),
      latencyMs: 100,
    }),
  );
}
