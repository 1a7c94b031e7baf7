import type { LeakageFingerprints, Proposal } from "@tfgrpo/protocol";
import { type LeakageSources, leakageFingerprintsOf, numberPattern, words } from "./leakage-fingerprints.js";

export interface LeakageFinding {
  proposal: Proposal;
  /** One line: what leaked, from which task. */
  reason: string;
}

/** A run's leakage fingerprints made ready to check lessons against, however many tasks they hold. */
export interface LeakageIndex {
  /** Tasks fingerprinted. */
  readonly size: number;
  check(proposals: readonly Proposal[]): { kept: Proposal[]; refused: LeakageFinding[] };
}

/** Consecutive words of a question a lesson may not repeat (a refusal quotes them). */
const phraseLength = 8;

/**
 * Lessons that carry a task instead of a lesson: a training or validation answer (a gate would be measuring recall,
 * and the library would teach answers, not methods), two or more constants copied from one question, a rare
 * constant of 3+ digits from one, or eight consecutive words of a question. Such proposals are refused before
 * consolidation, with the reason; deletes (no text) always pass.
 */
export function checkLeakage(
  proposals: readonly Proposal[],
  sources: LeakageSources | LeakageIndex,
): { kept: Proposal[]; refused: LeakageFinding[] } {
  const index = "check" in sources ? sources : createLeakageIndex(leakageFingerprintsOf(sources));
  return index.check(proposals);
}

/**
 * The check over stored fingerprints. Tasks are visited in their order and each gives the same reason as a plain
 * scan would, but a question's words are kept as ids of one vocabulary, and only runs of 8+ words that all occur in
 * the lesson are compared: a check costs one pass over the pool's words, with no string built per question.
 */
export function createLeakageIndex(fingerprints: LeakageFingerprints): LeakageIndex {
  // One pattern per distinct answer, the first task that has it named: a later task with the same answer could
  // never be the first match.
  const answers: Array<{ id: string; answer: string; runs: string[]; pattern?: RegExp }> = [];
  const seenAnswers = new Set<string>();
  const vocabulary = new Map<string, number>();
  const vocabularyWords: string[] = [];
  const wordOffsets = new Int32Array(fingerprints.tasks.length + 1);
  const wordIds: number[] = [];
  fingerprints.tasks.forEach((task, taskIndex) => {
    if (task.answer !== undefined && !seenAnswers.has(task.answer)) {
      seenAnswers.add(task.answer);
      answers.push({ id: task.id, answer: task.answer, runs: asciiRuns(task.answer) });
    }
    wordOffsets[taskIndex] = wordIds.length;
    for (const word of task.words === "" ? [] : task.words.split(" ")) {
      let id = vocabulary.get(word);
      if (id === undefined) {
        id = vocabularyWords.length;
        vocabulary.set(word, id);
        vocabularyWords.push(word);
      }
      wordIds.push(id);
    }
  });
  wordOffsets[fingerprints.tasks.length] = wordIds.length;
  const questionWords = Int32Array.from(wordIds);
  const inLesson = new Uint8Array(vocabularyWords.length);

  const leakIn = (text: string): string | undefined => {
    const key = asciiKey(text);
    for (const candidate of answers) {
      if (!candidate.runs.every((run) => key.includes(run))) continue;
      candidate.pattern ??= answerPattern(candidate.answer);
      if (candidate.pattern.test(text))
        return `contains the answer of task ${candidate.id} ("${candidate.answer}")`;
    }
    const lessonNumbers = new Set((text.match(numberPattern) ?? []).map((value) => value.replace(/^-/, "")));
    const lessonWords = words(text);
    const lessonPhrases = new Set(
      lessonWords
        .slice(0, Math.max(0, lessonWords.length - (phraseLength - 1)))
        .map((_, index) => lessonWords.slice(index, index + phraseLength).join(" ")),
    );
    const marked: number[] = [];
    if (lessonPhrases.size > 0) {
      for (const word of lessonWords) {
        const id = vocabulary.get(word);
        if (id !== undefined && inLesson[id] === 0) {
          inLesson[id] = 1;
          marked.push(id);
        }
      }
    }
    try {
      for (let taskIndex = 0; taskIndex < fingerprints.tasks.length; taskIndex++) {
        const task = fingerprints.tasks[taskIndex]!;
        if (lessonNumbers.size > 0) {
          const copied = task.constants.filter((constant) => lessonNumbers.has(constant));
          const rare = copied.filter((constant) => constant.replace(/\D/g, "").length >= 3);
          if (copied.length >= 2 || rare.length >= 1) {
            return `copies constants of task ${task.id}'s question (${copied.join(", ")})`;
          }
        }
        if (marked.length === 0) continue;
        // A run of question words that all occur in the lesson: each 8-word window ending in it may be a copy.
        let run = 0;
        for (let position = wordOffsets[taskIndex]!; position < wordOffsets[taskIndex + 1]!; position++) {
          run = inLesson[questionWords[position]!] === 1 ? run + 1 : 0;
          if (run < phraseLength) continue;
          const start = position - phraseLength + 1;
          const phrase = Array.from(
            questionWords.subarray(start, position + 1),
            (id) => vocabularyWords[id]!,
          ).join(" ");
          if (lessonPhrases.has(phrase))
            return `copies task ${task.id}'s question word for word ("${phrase}")`;
        }
      }
      return undefined;
    } finally {
      for (const id of marked) inLesson[id] = 0;
    }
  };

  return {
    size: fingerprints.tasks.length,
    check(proposals) {
      const kept: Proposal[] = [];
      const refused: LeakageFinding[] = [];
      for (const proposal of proposals) {
        const text = proposal.text ?? "";
        const reason = text.trim() === "" ? undefined : leakIn(text);
        if (reason) refused.push({ proposal, reason });
        else kept.push(proposal);
      }
      return { kept, refused };
    },
  };
}

/*
 * Compiling and running a case-insensitive Unicode pattern per answer costs about a millisecond per thousand answers
 * and lesson, so a pool of thousands is first narrowed by a test the pattern implies: each run of ASCII characters of
 * the answer, lowercased, occurs in the lesson's ASCII key. It never drops a match: under case-insensitive Unicode
 * matching an ASCII digit or symbol matches only itself, and an ASCII letter only its two cases, plus U+212A (Kelvin
 * sign) for k and U+017F (long s) for s (Unicode's simple case folding), which the key maps to the letter.
 */
const asciiRuns = (answer: string) =>
  (answer.match(/[^\u0080-\uffff]+/g) ?? []).map((run) => run.toLowerCase());
const asciiKey = (text: string) =>
  text.replace(/[A-Z\u212a\u017f]/g, (char) =>
    char === "\u212a" ? "k" : char === "\u017f" ? "s" : char.toLowerCase(),
  );

/** The answer as a whole word or number of the lesson, in any case. */
function answerPattern(answer: string): RegExp {
  const escaped = answer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu");
}
