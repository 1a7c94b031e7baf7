import type { ChatMessage } from "@tfgrpo/models";
import type { ExperienceLine, Trajectory } from "@tfgrpo/protocol";
import { escapeMarkers } from "./escape-markers.js";
import { dataNotInstructions } from "./quote-data.js";
import { type RenderTrajectoryOptions, renderTrajectory } from "./render-trajectory.js";

export type Evaluation = "correct" | "wrong" | "partial";

export interface SummaryPromptInput {
  trajectory: Trajectory;
  evaluation: Evaluation;
  /** The answer, the pseudo-label, or null when there is neither. */
  groundTruth: string | null;
  /** The ground truth is a majority vote of the group, not a verified answer. */
  pseudoLabel?: boolean;
  experiences?: readonly ExperienceLine[];
  render?: RenderTrajectoryOptions;
}

const system =
  "You analyse how an AI agent solved a problem, step by step, so that lessons can be learned from it. Be precise " +
  "and faithful to the trajectory: never invent a step, a tool result or an experience that is not there. " +
  dataNotInstructions;

/** Stage 1 of the paper (trajectory summarization), in the prompt contract's shape. */
export function summaryPrompt(input: SummaryPromptInput): ChatMessage[] {
  const groundTruth = input.groundTruth ?? "unknown";
  const note = input.pseudoLabel
    ? "Note: there is no verified answer; the ground truth below is the majority vote of several attempts.\n\n"
    : "";
  const content = [
    "An agent system may be provided with some experiences, and then it produces the following trajectory to solve " +
      "the given problem. Please summarize the trajectory step-by-step:",
    "",
    "1. For each step, describe what action is being taken, and which experience has been used in this step.",
    "2. Given the grading of this rollout and the correct answer, identify and explain any steps that represent " +
      "detours, errors, or backtracking.",
    "3. Maintain all the core outcome of each step.",
    "",
    `${note}<trajectory>`,
    renderTrajectory(input.trajectory, {
      ...input.render,
      ...(input.experiences ? { experiences: input.experiences } : {}),
    }),
    "</trajectory>",
    `<evaluation>${input.evaluation}</evaluation>`,
    `<groundtruth>${escapeMarkers(groundTruth)}</groundtruth>`,
    "",
    'Only return the trajectory summary of each step, one line per step as "Step N: ...". Start a step that went ' +
      'wrong with "Step N: ERROR -" and say what should have been done instead.',
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content },
  ];
}
