import { type LeakageFingerprints, runWords } from "@tfgrpo/protocol";

/** What lessons must not contain: the run's training and validation tasks (answers and questions). */
export interface LeakageSources {
  tasks: Iterable<{ id: string; question: string; answer?: string | undefined }>;
}

/** Numbers every kind of problem uses: a lesson may say them without copying a task. */
export const commonNumbers = new Set(["10", "100", "1000", "12", "24", "60", "90", "180", "360", "1024"]);
export const numberPattern = /(?<![\d.])-?\d+(?:\.\d+)?(?:\/\d+)?(?![\d.])/g;
/** A question's and a lesson's words, as the copied-instruction check reads them too. */
export { runWords as words };

const normalizeAnswer = (answer: string) =>
  answer
    .trim()
    .replace(/^\$|\$$/g, "")
    .replace(/^0+(?=\d)/, "");

/** A distinctive answer: a number of 3+ digits (or a decimal / fraction), or a text answer of 4+ characters. */
function distinctive(answer: string): boolean {
  if (/^-?\d+$/.test(answer)) return answer.replace("-", "").length >= 3 && !commonNumbers.has(answer);
  if (/^-?\d+(?:\.\d+|\/\d+)$/.test(answer)) return answer.length >= 3;
  return answer.length >= 4 && runWords(answer).length > 0;
}

/** The task-specific constants of a question: its numbers, minus the small and common ones. */
function constantsOf(question: string): string[] {
  const found = question.match(numberPattern) ?? [];
  return [...new Set(found.map((value) => value.replace(/^-/, "")))].filter(
    (value) => value.replace(/\D/g, "").length >= 2 && !commonNumbers.has(value),
  );
}

/**
 * Everything the leakage check compares a lesson with, task by task in the run's order (the order decides which task
 * a refusal names): the answer when distinctive, the question's constants and its words (whose 8-word runs a lesson
 * must not copy). Computed once per run by the runner and stored; the curator reads it by digest.
 */
export function leakageFingerprintsOf(sources: LeakageSources): LeakageFingerprints {
  const tasks: LeakageFingerprints["tasks"] = [];
  for (const task of sources.tasks) {
    const answer = task.answer === undefined ? "" : normalizeAnswer(task.answer);
    tasks.push({
      id: task.id,
      ...(answer && distinctive(answer) ? { answer } : {}),
      constants: constantsOf(task.question),
      words: runWords(task.question).join(" "),
    });
  }
  return { tasks };
}
