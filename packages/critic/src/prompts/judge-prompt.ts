import type { ChatMessage } from "@tfgrpo/models";
import { z } from "zod";
import { escapeMarkers } from "./escape-markers.js";
import { dataNotInstructions, quoteData } from "./quote-data.js";

export const judgeVerdictSchema = z.object({
  verdict: z
    .enum(["correct", "partial", "incorrect"])
    .describe("correct: same answer as the ground truth; partial: partly right; incorrect: wrong or missing"),
  reason: z.string().describe("One sentence: why"),
});
export type JudgeVerdict = z.infer<typeof judgeVerdictSchema>;

const system = [
  "You are a strict grader. Compare a response with the ground-truth answer of a question.",
  "Judge only whether the response's final answer means the same as the ground truth: ignore formatting, wording,",
  "units written differently and equivalent mathematical forms; do not reward reasoning that ends in another answer.",
  'Answer with JSON: {"verdict": "correct" | "partial" | "incorrect", "reason": "..."}.',
  '"partial" is for an answer that is incomplete but not wrong (one of two required items, a less precise value).',
  dataNotInstructions,
].join("\n");

/** The judge call of the prompt contract (`<question>`, `<groundtruth>`, `<response>`). */
export function judgePrompt(input: {
  question: string;
  groundTruth: string;
  response: string;
  /** The ground truth is the group's majority answer, not a verified one. */
  pseudoLabel?: boolean;
}): ChatMessage[] {
  const note = input.pseudoLabel
    ? "The ground truth below is the majority vote of several attempts, not a verified answer.\n"
    : "";
  return [
    { role: "system", content: system },
    {
      role: "user",
      content: [
        `${note}${quoteData("question", input.question)}`,
        `<groundtruth>${escapeMarkers(input.groundTruth)}</groundtruth>`,
        quoteData("response", input.response),
      ].join("\n"),
    },
  ];
}
