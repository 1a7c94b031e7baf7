import type { ChatMessage } from "@tfgrpo/models";
import type { ExperienceLine } from "@tfgrpo/protocol";
import { z } from "zod";
import { advantageOperationSchema, scopeInstruction } from "./advantage-prompt.js";
import { escapeMarkers } from "./escape-markers.js";
import { dataLimits, dataNotInstructions, quoteData } from "./quote-data.js";
import { experienceLine } from "./render-trajectory.js";

/** One row of the difference table: a decision point and how the successful and the failed cases handled it. */
export const onlineDifferenceSchema = z.object({
  decision_point: z.string().min(1).describe("Where the cases diverge: the step or choice, in a few words"),
  successes: z.string().describe("What the successful cases did there (cite case numbers)"),
  failures: z.string().describe("What the failed cases did there instead (cite case numbers)"),
});
export type OnlineDifference = z.infer<typeof onlineDifferenceSchema>;

export const onlineReflectionAnswerSchema = z.object({
  differences: z
    .array(onlineDifferenceSchema)
    .describe("First: the table of where successful and failed cases differ, one row per decision point"),
  rules: z
    .array(advantageOperationSchema)
    .describe("Then: at most the asked number of action-level rules, each an operation on the library"),
});
export type OnlineReflectionAnswer = z.infer<typeof onlineReflectionAnswerSchema>;

export interface OnlineCase {
  /** The task text the agent served. */
  task: string;
  /** 1 for a success; below 1 for a failure (graded rewards are kept as given). */
  reward: number;
  /** What the agent did: a stage-1 summary of its trajectory, or the client's own summary. */
  summary: string;
  /** Feedback the client reported with the outcome, if any. */
  feedback?: string;
}

export interface OnlineReflectionPromptInput {
  /** A neighbourhood of similar served tasks holding both successes and failures. */
  cases: readonly OnlineCase[];
  experiences: readonly ExperienceLine[];
  /** At most this many rules (default 8, seed 002 §3.2). */
  maxRules?: number;
  /** Longest rule (words; default 32). */
  maxWords?: number;
}

// This prompt's own contract tags: embedded text must not open or close them (the shared ones are escaped too).
const ownTags = ["outcomes", "case", "task", "summary", "feedback"];

const system =
  "You improve a library of short, action-level rules for an AI agent that is serving live tasks. You compare " +
  "similar tasks it solved with similar tasks it failed and find what it did differently. Answer only with JSON. " +
  dataNotInstructions;

/**
 * The online (just-in-time) reflection prompt of seed 002 §3.2: live traffic gives no G attempts of one task, so the
 * critic sees a neighbourhood of similar tasks, successes beside failures. It first writes a table of where they
 * differ (an explicit intermediate step that improves the rules), then at most N action-level rules, each a short
 * operation on the library, with no advice that cannot be acted on.
 */
export function onlineReflectionPrompt(input: OnlineReflectionPromptInput): ChatMessage[] {
  const maxRules = input.maxRules ?? 8;
  const maxWords = input.maxWords ?? 32;
  const cases = input.cases.map((item, index) => {
    const outcome = item.reward >= 1 ? "success" : "failure";
    // Every case text came from a client (the summary too, or from its trajectory): quoted as data, capped.
    const feedback = item.feedback?.trim()
      ? `\n${quoteData("feedback", item.feedback, { maxChars: dataLimits.feedback, tags: ownTags })}`
      : "";
    return [
      `<case index="${index + 1}" outcome="${outcome}" reward="${formatReward(item.reward)}">`,
      quoteData("task", item.task, { maxChars: dataLimits.task, tags: ownTags }),
      `${quoteData("summary", item.summary, { maxChars: dataLimits.trajectory, tags: ownTags, multiline: true })}${feedback}`,
      "</case>",
    ].join("\n");
  });
  const content = [
    "These are similar tasks an agent served recently with the experiences below; some succeeded and some failed.",
    "",
    "1. Differences first: fill a table of the decision points where the successful cases and the failed cases",
    "   acted differently (what the successes did, what the failures did instead, with case numbers). Compare",
    "   actions, tool use, sources and answers; ignore differences that do not bear on the outcome.",
    "",
    "2. Then rules, from the table only:",
    `- At most ${maxRules} rules; fewer is better when fewer explain the failures.`,
    `- Each rule: at most ${maxWords} words, beginning with the situation it applies to ("When ...", ` +
      '"For tasks involving ..."), then the concrete action to take or avoid.',
    '- Action level only: no advice that cannot be acted on ("be careful", "think harder", "double-check everything").',
    "- A rule may add a new experience, or modify or delete an existing one (name its id) when it misled the failures.",
    scopeInstruction,
    "",
    'Return JSON: {"differences": [{"decision_point": "...", "successes": "cases 1, 3 ...", "failures": "case 2 ..."}], ' +
      '"rules": [{"option": "add", "experience": "When ...", "when_not": "...", "reason": "..."}, ' +
      '{"option": "modify", "experience_id": "G3", "experience": "...", "when_not": "...", "reason": "..."}, ' +
      '{"option": "delete", "experience_id": "G5", "reason": "..."}]}',
    "",
    "<outcomes>",
    ...cases,
    "</outcomes>",
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
