import { z } from "zod";
import type { Suggestion } from "./consolidation-prepass.js";
import type { CuratorChatMessage } from "./curator-dependencies.js";
import { countWords } from "./word-limit.js";

const reason = z.string().optional().describe("One line: why");
const experienceText = z.string().min(1).describe("The experience text, at most the word limit");
const whenNot = z
  .string()
  .nullish()
  .describe("Optional: one short clause naming a situation where the experience does not apply");

/**
 * The answer of a consolidation call (docs/prompt-contract.md, "Curator, stage 3"). Lenient on purpose: texts over
 * the word limit and unknown ids are repaired or dropped per operation afterwards, so one bad operation does not
 * throw away a whole, otherwise good answer.
 */
export const consolidationAnswerSchema = z.object({
  operations: z
    .array(
      z.discriminatedUnion("option", [
        z.object({ option: z.literal("add"), experience: experienceText, when_not: whenNot, reason }),
        z.object({
          option: z.literal("modify"),
          experience_id: z.string().describe("Library id (G3) or suggestion id (P2)"),
          experience: experienceText,
          when_not: whenNot,
          reason,
        }),
        z.object({
          option: z.literal("merge"),
          experience_ids: z
            .array(z.string())
            .min(1)
            .describe("Library ids and/or suggestion ids merged into one"),
          experience: experienceText,
          when_not: whenNot,
          reason,
        }),
        z.object({ option: z.literal("delete"), experience_id: z.string(), reason }),
        z.object({ option: z.literal("keep"), experience_id: z.string(), reason }),
      ]),
    )
    .describe("The final operations on the experience library"),
});
export type ConsolidationAnswer = z.infer<typeof consolidationAnswerSchema>;
export type ConsolidationAnswerOperation = ConsolidationAnswer["operations"][number];

export const consolidationSystemPrompt =
  "You are the curator of an experience library: short, general lessons an AI agent reads before solving tasks. " +
  "You keep the library small, clear, non-redundant and free of contradictions.";

/** `[G3]. text`: the experience line format every role shares. */
export function experienceLine(id: string, text: string): string {
  return `[${id}]. ${text.replace(/\s+/g, " ").trim()}`;
}

/** Long texts are clipped in the prompt (the model rewrites them anyway), so one runaway proposal cannot blow the budget. */
export function clipWords(text: string, limit: number): string {
  if (countWords(text) <= limit) return text;
  return `${text.split(/\s+/).slice(0, limit).join(" ")} ...`;
}

export function suggestionLine(suggestion: Suggestion, wordLimit: number): string {
  const line: Record<string, unknown> = { temp_id: suggestion.tempId, option: suggestion.option };
  if (suggestion.targetId) line.experience_id = suggestion.targetId;
  if (suggestion.text !== undefined) line.experience = clipWords(suggestion.text, wordLimit * 3);
  if (suggestion.whenNot !== undefined) line.when_not = clipWords(suggestion.whenNot, wordLimit);
  line.reason = clipWords(suggestion.reason, 40);
  return JSON.stringify(line);
}

function instructions(wordLimit: number, domain: string): string {
  return [
    `Consolidate the suggested updates for the ${domain} experience library into final experience revisions.`,
    "Requirements:",
    `1. Each experience is clear, generalizable and at most ${wordLimit} words.`,
    "2. Focus on strategic thinking: when an approach applies and why, not how to calculate one problem.",
    '3. Start each experience with when it applies ("When ...", "For problems involving ...").',
    "4. Avoid duplication: merge experiences and suggestions that say the same thing.",
    "5. Remove vague, low-value or contradictory experiences; keep the library diverse.",
    '6. Keep a suggestion\'s "when_not" (where the experience does not apply) on the experience it becomes; ' +
      "write one for a merged experience when its sources name one.",
    "Options: add, modify, merge, delete, keep. Suggestions are referred to by their temp_id (P1), library entries by id (G3).",
  ].join("\n");
}

const answerFormat = [
  'Return a JSON object {"operations": [...]} where each operation is one of:',
  '{"option": "add", "experience": "...", "when_not": "... (optional)", "reason": "..."}',
  '{"option": "modify", "experience_id": "G3", "experience": "...", "when_not": "... (optional)", "reason": "..."}',
  '{"option": "merge", "experience_ids": ["G1", "P4"], "experience": "...", "when_not": "... (optional)", "reason": "..."}',
  '{"option": "delete", "experience_id": "G3", "reason": "..."}',
  '{"option": "keep", "experience_id": "G3", "reason": "..."}',
].join("\n");

/** Messages of one consolidation call; `<suggested_updates>` in the last user message marks it (prompt contract). */
export function consolidationMessages(input: {
  domain: string;
  wordLimit: number;
  experiences: readonly { id: string; text: string }[];
  suggestions: readonly Suggestion[];
}): CuratorChatMessage[] {
  const user = [
    instructions(input.wordLimit, input.domain),
    "<experience>",
    ...input.experiences.map((entry) => experienceLine(entry.id, entry.text)),
    "</experience>",
    "<suggested_updates>",
    `[${input.suggestions.map((suggestion) => suggestionLine(suggestion, input.wordLimit)).join(",\n ")}]`,
    "</suggested_updates>",
    answerFormat,
  ].join("\n");
  return [
    { role: "system", content: consolidationSystemPrompt },
    { role: "user", content: user },
  ];
}

/** The fixed part of a consolidation prompt, for chunk budgeting. */
export function consolidationOverhead(domain: string, wordLimit: number): string {
  return [
    consolidationSystemPrompt,
    instructions(wordLimit, domain),
    answerFormat,
    "<experience>\n</experience>\n<suggested_updates>\n[]\n</suggested_updates>",
  ].join("\n");
}
