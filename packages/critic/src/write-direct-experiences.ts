import { addUsage, emptyUsageTotals, TfgrpoError, type UsageTotals } from "@tfgrpo/protocol";
import type { CriticModels } from "./critic-models.js";
import {
  directExperiencesAnswerSchema,
  directExperiencesPrompt,
} from "./prompts/direct-experiences-prompt.js";

export interface WriteDirectExperiencesOptions {
  models: CriticModels;
  domain: string;
  /** How many lessons to ask for (the paper: as many as the learned library holds). */
  count: number;
  /** Training questions shown to the model (questions only: no answers, no attempts). */
  problems: readonly string[];
  /**
   * The model role that writes them; default "critic", the role that writes lessons in the learning loop, so the
   * ablation changes the evidence the lessons come from and not the model that writes them.
   */
  role?: "critic" | "curator";
  maxWords?: number;
  temperature?: number;
  seed?: number;
  signal?: AbortSignal;
}

export interface DirectExperiencesResult {
  /** Cleaned lessons, distinct, at most `count`, in the model's order. */
  experiences: string[];
  /** What the model wrote that was not kept (empty, repeated, beyond the count), with why. */
  dropped: { text: string; reason: string }[];
  usage: UsageTotals;
}

/**
 * The "direct experiences" ablation baseline: one structured call that writes `count` lessons from the problems
 * alone. An answer with no usable lesson is a model error (a library of nothing is not a baseline).
 */
export async function writeDirectExperiences(
  options: WriteDirectExperiencesOptions,
): Promise<DirectExperiencesResult> {
  if (!Number.isInteger(options.count) || options.count < 1) {
    throw new TfgrpoError(
      "invalid_input",
      `direct experiences: count must be a positive integer, got ${options.count}`,
    );
  }
  if (options.problems.length === 0) {
    throw new TfgrpoError("invalid_input", "direct experiences: at least one problem is needed");
  }
  const result = await options.models.structured(options.role ?? "critic", {
    messages: directExperiencesPrompt({
      domain: options.domain,
      lessonCount: options.count,
      problems: options.problems,
      ...(options.maxWords !== undefined ? { maxWords: options.maxWords } : {}),
    }),
    schema: directExperiencesAnswerSchema,
    name: "direct_experiences",
    description: `${options.count} reusable experiences written from the problems alone`,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const experiences: string[] = [];
  const dropped: DirectExperiencesResult["dropped"] = [];
  const seen = new Set<string>();
  for (const raw of result.value.experiences) {
    const text = cleanLesson(raw);
    const key = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (key === "") dropped.push({ text: raw, reason: "empty" });
    else if (seen.has(key)) dropped.push({ text: raw, reason: "repeats an earlier lesson" });
    else if (experiences.length >= options.count)
      dropped.push({ text: raw, reason: `beyond the ${options.count} asked for` });
    else {
      seen.add(key);
      experiences.push(text);
    }
  }
  const usage = { ...addUsage(emptyUsageTotals(), result.usage), calls: result.attempts };
  if (experiences.length === 0) {
    throw new TfgrpoError("model_error", "direct experiences: the model wrote no usable lesson", {
      details: { usage: result.usage, dropped },
    });
  }
  return { experiences, dropped, usage };
}

/** Drops list markers and experience ids a model may copy from other prompts (`1. `, `- `, `[G3]. `). */
function cleanLesson(text: string): string {
  return text
    .trim()
    .replace(/^(?:[-*•]\s+|\d+[.)]\s+|\[[A-Z]?\d+\]\.?\s*)/, "")
    .replace(/\s+/g, " ")
    .trim();
}
