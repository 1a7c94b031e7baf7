import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * Lessons written for the sim by an author who never read its source (test-data/lesson-bank/README.md): correct,
 * harmful, vague and keyword-stub lessons per pitfall, and sound advice on unrelated topics. Tests and benchmarks
 * measure how the simulated policy reads lessons with them; nothing in the sim itself may read this bank.
 */
const pitfallLessonsSchema = z.object({
  description: z.string(),
  correct: z.array(z.string()),
  harmful: z.array(z.string()),
  vague: z.array(z.string()),
  stubs: z.array(z.string()),
});

const lessonBankSchema = z.object({
  pitfalls: z.record(z.string(), pitfallLessonsSchema),
  unrelated: z.array(z.string()),
});

export type PitfallLessons = z.infer<typeof pitfallLessonsSchema>;
export type LessonBank = z.infer<typeof lessonBankSchema>;
export type LessonBankHalf = "dev" | "holdout" | "all";

/**
 * `lesson-bank` is the bank the policy's reader was tuned on; `lesson-bank-2`, by another author, was held out until
 * the second polarity pass used it. `lesson-bank-3` (checklists, "When …" conditionals, warnings, "X, not Y") and
 * `lesson-bank-4` (second person, questions, numbers, "stay away from", "ignore", "regardless of") were written
 * before the polarity rework and measured before and after it; `lesson-bank-5` was written after it and used by the
 * second pass; `lesson-bank-6` (dialogue, abbreviations, "Do X. Don't Y.", "Instead of X, Y", "X beats Y", trailing
 * conditions, fragments, "because") was written before the second pass and is held out (see their READMEs).
 */
export type LessonBankName =
  | "lesson-bank"
  | "lesson-bank-2"
  | "lesson-bank-3"
  | "lesson-bank-4"
  | "lesson-bank-5"
  | "lesson-bank-6";

export function lessonBankPath(name: string, bank: LessonBankName = "lesson-bank"): string {
  return fileURLToPath(new URL(`../../../../test-data/${bank}/${name}`, import.meta.url));
}

function half<T>(items: readonly T[], which: LessonBankHalf): T[] {
  if (which === "all") return [...items];
  return items.filter((_, index) => index % 2 === (which === "dev" ? 0 : 1));
}

/** The bank of one domain; `half` keeps the even ("dev") or odd ("holdout") entries of every list. */
export function loadLessonBank(
  domain: "math" | "web",
  which: LessonBankHalf = "all",
  name: LessonBankName = "lesson-bank",
): LessonBank {
  const bank = lessonBankSchema.parse(
    JSON.parse(readFileSync(lessonBankPath(`${domain}.json`, name), "utf8")),
  );
  const pitfalls: Record<string, PitfallLessons> = {};
  for (const [id, lessons] of Object.entries(bank.pitfalls)) {
    pitfalls[id] = {
      description: lessons.description,
      correct: half(lessons.correct, which),
      harmful: half(lessons.harmful, which),
      vague: half(lessons.vague, which),
      stubs: half(lessons.stubs, which),
    };
  }
  return { pitfalls, unrelated: half(bank.unrelated, which) };
}

/** A library of the bank's `libraries/` folder in the plain `{"G0": "text"}` form. */
export function loadBankLibrary(name: string): Record<string, string> {
  return z
    .record(z.string(), z.string())
    .parse(JSON.parse(readFileSync(lessonBankPath(`libraries/${name}.json`), "utf8")));
}
