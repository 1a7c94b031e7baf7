import type { Proposal } from "@tfgrpo/protocol";
import { firstSharedRun, runWords as words } from "./word-runs.js";

/** What lessons must not contain: the run's training and validation tasks (answers and questions). */
export interface LeakageSources {
  tasks: ReadonlyArray<{ id: string; question: string; answer?: string | undefined }>;
}

export interface LeakageFinding {
  proposal: Proposal;
  /** One line: what leaked, from which task. */
  reason: string;
}

/** Numbers every kind of problem uses: a lesson may say them without copying a task. */
const commonNumbers = new Set(["10", "100", "1000", "12", "24", "60", "90", "180", "360", "1024"]);
const numberPattern = /(?<![\d.])-?\d+(?:\.\d+)?(?:\/\d+)?(?![\d.])/g;

const normalizeAnswer = (answer: string) =>
  answer
    .trim()
    .replace(/^\$|\$$/g, "")
    .replace(/^0+(?=\d)/, "");

/** A distinctive answer: a number of 3+ digits (or a decimal / fraction), or a text answer of 4+ characters. */
function distinctive(answer: string): boolean {
  if (/^-?\d+$/.test(answer)) return answer.replace("-", "").length >= 3 && !commonNumbers.has(answer);
  if (/^-?\d+(?:\.\d+|\/\d+)$/.test(answer)) return answer.length >= 3;
  return answer.length >= 4 && words(answer).length > 0;
}

function containsAnswer(text: string, answer: string): boolean {
  const escaped = answer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** The task-specific constants of a question: its numbers, minus the small and common ones. */
function constantsOf(question: string): string[] {
  const found = question.match(numberPattern) ?? [];
  return [...new Set(found.map((value) => value.replace(/^-/, "")))].filter(
    (value) => value.replace(/\D/g, "").length >= 2 && !commonNumbers.has(value),
  );
}

/**
 * Lessons that carry a task instead of a lesson: a training or validation answer (a gate would be measuring recall,
 * and the library would teach answers, not methods), two or more constants copied from one question, a rare
 * constant of 3+ digits from one, or eight consecutive words of a question. Such proposals are refused before
 * consolidation, with the reason; deletes (no text) always pass.
 */
export function checkLeakage(
  proposals: readonly Proposal[],
  sources: LeakageSources,
): { kept: Proposal[]; refused: LeakageFinding[] } {
  const answers = sources.tasks.flatMap((task) => {
    const answer = task.answer === undefined ? "" : normalizeAnswer(task.answer);
    return answer && distinctive(answer) ? [{ id: task.id, answer }] : [];
  });
  const questions = sources.tasks.map((task) => ({
    id: task.id,
    constants: constantsOf(task.question),
    words: words(task.question),
  }));
  const kept: Proposal[] = [];
  const refused: LeakageFinding[] = [];
  for (const proposal of proposals) {
    const text = proposal.text ?? "";
    const reason = text.trim() === "" ? undefined : leakIn(text, answers, questions);
    if (reason) refused.push({ proposal, reason });
    else kept.push(proposal);
  }
  return { kept, refused };
}

function leakIn(
  text: string,
  answers: ReadonlyArray<{ id: string; answer: string }>,
  questions: ReadonlyArray<{ id: string; constants: string[]; words: string[] }>,
): string | undefined {
  for (const { id, answer } of answers) {
    if (containsAnswer(text, answer)) return `contains the answer of task ${id} ("${answer}")`;
  }
  const lessonNumbers = new Set((text.match(numberPattern) ?? []).map((value) => value.replace(/^-/, "")));
  const lessonWords = words(text);
  for (const question of questions) {
    const copied = question.constants.filter((constant) => lessonNumbers.has(constant));
    const rare = copied.filter((constant) => constant.replace(/\D/g, "").length >= 3);
    if (copied.length >= 2 || rare.length >= 1) {
      return `copies constants of task ${question.id}'s question (${copied.join(", ")})`;
    }
    const phrase = firstSharedRun(question.words, lessonWords, 8);
    if (phrase) return `copies task ${question.id}'s question word for word ("${phrase}")`;
  }
  return undefined;
}
