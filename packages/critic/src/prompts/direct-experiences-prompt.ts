import type { ChatMessage } from "@tfgrpo/models";
import { z } from "zod";
import { dataNotInstructions, escapeData } from "./quote-data.js";

export const directExperiencesAnswerSchema = z.object({
  experiences: z
    .array(z.string().describe("One experience: a short, general, reusable lesson"))
    .describe("The lessons, as many as asked for, each a single sentence or two"),
});
export type DirectExperiencesAnswer = z.infer<typeof directExperiencesAnswerSchema>;

export interface DirectExperiencesPromptInput {
  domain: string;
  /** How many lessons to write (the size of the library it is compared with). */
  lessonCount: number;
  /** Training questions the lessons are written for, without answers or attempts. */
  problems: readonly string[];
  /** Longest experience text asked for (words). */
  maxWords?: number;
}

const system =
  "You write a library of short, reusable problem-solving experiences for an AI agent, from your own knowledge of " +
  "the domain: you are shown example problems, but no attempts at them and no answers. Answer only with JSON. " +
  dataNotInstructions;

// The contract tags of this prompt, besides the shared ones: a question must not open or close them.
const ownTags = ["domain", "lesson_count", "problems"];

/** A question on one `- ` line, its contract tags defused. */
function problemLine(question: string): string {
  return `- ${escapeData(question.replace(/\s*\r?\n\s*/g, " ").trim(), ownTags)}`;
}

/**
 * The paper's "direct experiences" ablation: the model writes as many lessons as the learned library holds, straight
 * from the training problems, without rollouts, rewards or group comparison (docs/prompt-contract.md).
 */
export function directExperiencesPrompt(input: DirectExperiencesPromptInput): ChatMessage[] {
  const maxWords = input.maxWords ?? 32;
  const content = [
    `Write exactly ${input.lessonCount} experiences that would help an agent solve problems like the ones below.`,
    "",
    `- Each experience: at most ${maxWords} words, beginning with the context it applies to ("When ...", ` +
      '"For problems involving ..."), focused on a strategic pattern or a common mistake, not on one problem\'s numbers.',
    "- Cover different kinds of problems and different mistakes; do not repeat yourself.",
    "",
    'Return JSON: {"experiences": ["When ...", "For problems involving ..."]}',
    "",
    `<domain>${escapeData(input.domain, ownTags)}</domain>`,
    `<lesson_count>${input.lessonCount}</lesson_count>`,
    "<problems>",
    ...input.problems.map(problemLine),
    "</problems>",
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content },
  ];
}
