import { z } from "zod";
import type { CuratorChatMessage } from "./curator-dependencies.js";

export const conflictAnswerSchema = z.object({
  conflict: z
    .boolean()
    .describe("True when following one experience means violating the other in the same situation"),
  reason: z.string().describe("One line: why they do or do not conflict"),
});
export type ConflictAnswer = z.infer<typeof conflictAnswerSchema>;

const inline = (text: string) => text.replace(/</g, "&lt;").replace(/\s+/g, " ").trim();

/** One pairwise conflict check; `<experience_a` in the last user message marks it (prompt contract). */
export function conflictCheckMessages(
  a: { label: string; text: string },
  b: { label: string; text: string },
): CuratorChatMessage[] {
  return [
    {
      role: "system",
      content:
        "You check an experience library for contradictions. Two experiences conflict only when, in the same " +
        "situation, following one means violating the other. Different topics, or advice that can both be followed, " +
        "are not a conflict.",
    },
    {
      role: "user",
      content: [
        "Do these two experiences give opposite instructions for the same situation?",
        `<experience_a id="${a.label}">${inline(a.text)}</experience_a>`,
        `<experience_b id="${b.label}">${inline(b.text)}</experience_b>`,
        'Answer with a JSON object {"conflict": true|false, "reason": "..."}.',
      ].join("\n"),
    },
  ];
}
