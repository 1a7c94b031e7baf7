import type { ChatMessage } from "@tfgrpo/models";
import type { ExperienceLine } from "@tfgrpo/protocol";
import { z } from "zod";
import { escapeMarkers } from "./escape-markers.js";
import { dataNotInstructions, escapeData, quoteData } from "./quote-data.js";
import { experienceLine } from "./render-trajectory.js";

/** One operation as the model writes it (prompt contract, stage 2). Checked against the library afterwards. */
export const advantageOperationSchema = z.object({
  option: z
    .enum(["add", "modify", "delete"])
    .describe("add a new experience, modify or delete an existing one"),
  experience_id: z.string().optional().describe("Id of the existing experience (modify, delete), e.g. G3"),
  experience: z.string().optional().describe("Text of the new or rewritten experience (add, modify)"),
  when_not: z
    .string()
    .nullish()
    .describe(
      "Optional (add, modify): one short clause naming the situation where the experience does not apply",
    ),
  reason: z.string().min(1).describe("One line: what in the attempts supports this operation"),
});
export type AdvantageOperation = z.infer<typeof advantageOperationSchema>;

export const advantageAnswerSchema = z.object({
  operations: z
    .array(advantageOperationSchema)
    .describe("At most 3 operations; an empty list when the experiences need no change"),
});
export type AdvantageAnswer = z.infer<typeof advantageAnswerSchema>;

export interface AdvantagePromptInput {
  question: string;
  attempts: readonly { reward: number; summary: string; withheld?: readonly string[] }[];
  groundTruth: string | null;
  pseudoLabel?: boolean;
  experiences: readonly ExperienceLine[];
  maxOperations?: number;
  /** Longest experience text asked for (words). */
  maxWords?: number;
}

/**
 * Seed 002 §5.1: a lesson written from one batch drifts onto tasks it does not fit unless its author says where it
 * stops applying; retrieval leaves an entry out of tasks that match this clause. Shared by the online reflection.
 */
export const scopeInstruction =
  '- For add and modify, optionally "when_not": one short clause naming a situation the experience does not ' +
  'apply to, stated positively (e.g. "all groups have the same size"), not as a negation of its own context; ' +
  "leave it out when you cannot name one.";

const system =
  "You improve a library of short, reusable problem-solving experiences by comparing several attempts at the same " +
  "problem: what the successful attempts did that the failed ones did not. Answer only with JSON. " +
  dataNotInstructions;

/** Stage 2 of the paper (group advantage extraction), in the prompt contract's shape. */
export function advantagePrompt(input: AdvantagePromptInput): ChatMessage[] {
  const maxOperations = input.maxOperations ?? 3;
  const maxWords = input.maxWords ?? 32;
  const attempts = input.attempts
    .map(
      (attempt, index) =>
        `<attempt index="${index + 1}" reward="${formatReward(attempt.reward)}"${withheldAttribute(attempt.withheld)}>\n${escapeData(attempt.summary.trim())}\n</attempt>`,
    )
    .join("\n");
  const groundTruthNote = input.pseudoLabel
    ? "There is no verified answer: the ground truth below is the majority vote of the attempts' answers, so " +
      "weigh it with care.\n"
    : "";
  const content = [
    "Review these problem-solving attempts and extract generalizable experiences:",
    "",
    "1. Trajectory Analysis:",
    "- For successful steps: identify key correct decisions.",
    "- For errors: pinpoint where and why reasoning went wrong.",
    "- Note patterns or strategies used or missed, and which existing experiences helped, misled or were missing.",
    ...(input.attempts.some((attempt) => attempt.withheld?.length)
      ? [
          "- Attempts differ in which experiences they were shown: an attempt's withheld attribute lists the ones it " +
            "was not shown. Compare the attempts that saw an experience with those that did not before you keep, " +
            "modify or delete it.",
        ]
      : []),
    "",
    "2. Update Existing Experiences:",
    "- Options: modify, add, delete (or no operation when nothing needs to change).",
    `- At most ${maxOperations} operations for this problem.`,
    `- Each experience: at most ${maxWords} words, beginning with the context it applies to ("When ...", ` +
      '"For problems involving ..."), focused on a strategic pattern, not on this problem\'s numbers.',
    "- modify and delete name an existing experience id from the list below; add and modify give the full new text.",
    scopeInstruction,
    "",
    'Return JSON: {"operations": [{"option": "add", "experience": "...", "when_not": "...", "reason": "..."}, ' +
      '{"option": "modify", "experience_id": "G3", "experience": "...", "when_not": "...", "reason": "..."}, ' +
      '{"option": "delete", "experience_id": "G5", "reason": "..."}]}',
    "",
    quoteData("problem", input.question),
    "<trajectories>",
    attempts,
    "</trajectories>",
    `${groundTruthNote}<groundtruth>${escapeMarkers(input.groundTruth ?? "unknown")}</groundtruth>`,
    "<experience>",
    ...input.experiences.map((experience) => escapeMarkers(experienceLine(experience))),
    "</experience>",
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content },
  ];
}

function formatReward(reward: number): string {
  return Number.isInteger(reward) ? String(reward) : String(Number(reward.toFixed(3)));
}

/** ` withheld="G2 G5"` for an attempt that was not shown some of the group's varied experiences, else nothing. */
function withheldAttribute(withheld: readonly string[] | undefined): string {
  return withheld && withheld.length > 0 ? ` withheld="${withheld.join(" ")}"` : "";
}
