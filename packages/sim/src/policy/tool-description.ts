/**
 * How the simulated policy reads a tool's words (its description, its name, its arguments' names and descriptions):
 * which ideas a text states, and whether it states them or denies them. "Explains Python code without running it"
 * states Python and denies running; a model reads it that way, and so does this.
 */

/** An idea a text may state: one pattern over single lowercased words. */
export type Idea = RegExp;

export interface IdeaReading {
  /** The text states the idea at least once, not negated. */
  stated: boolean;
  /** The text names the idea only under a negation ("does not run", "without executing"). */
  denied: boolean;
}

/** A text cut into clauses of words; a comma is kept as a token (it ends the reach of a negation). */
export interface ReadText {
  clauses: string[][];
}

const negators = new Set([
  "not",
  "never",
  "without",
  "no",
  "cannot",
  "nor",
  "t", // the tail of "doesn't", "can't", "won't" once apostrophes split words
  "instead",
  "rather",
  "neither",
]);

/** Words after which a negation no longer reaches: a new clause inside the sentence. */
const barriers = new Set([
  ",",
  "that",
  "which",
  "where",
  "who",
  "when",
  "while",
  "and",
  "but",
  "or",
  "so",
  "then",
  "if",
  "because",
  "though",
  "although",
]);

const negationReach = 4;

/** Lowercased words of a text; camelCase and snake_case split ("runPython", "py_exec" read as two words). */
export function readText(text: string): ReadText {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase();
  const clauses = spaced
    .split(/[.;!?\n()[\]]+|\s[-–—]\s|:\s|\bbut\b|\bhowever\b/)
    .map((clause) =>
      clause
        .replace(/,/g, " , ")
        .split(/[^a-z0-9,+#]+/)
        .filter(Boolean),
    )
    .filter((words) => words.length > 0);
  return { clauses };
}

function negated(words: readonly string[], index: number): boolean {
  for (let i = index - 1; i >= 0 && i >= index - negationReach; i--) {
    const word = words[i]!;
    if (barriers.has(word)) return false;
    if (negators.has(word)) return true;
  }
  // "runs nothing", "executes no code"
  const next = words[index + 1];
  return next === "nothing" || next === "no";
}

/** Whether a text states an idea, denies it, or does not name it. */
export function readIdea(text: ReadText, idea: Idea): IdeaReading {
  let stated = false;
  let named = false;
  for (const words of text.clauses) {
    words.forEach((word, index) => {
      if (!idea.test(word)) return;
      named = true;
      if (!negated(words, index)) stated = true;
    });
  }
  return { stated, denied: named && !stated };
}

/** Whether some clause states both ideas (an action and its object in one breath: "runs Python code"). */
export function statedTogether(text: ReadText, first: Idea, second: Idea): boolean {
  return text.clauses.some((words) => {
    const has = (idea: Idea) => words.some((word, index) => idea.test(word) && !negated(words, index));
    return has(first) && has(second);
  });
}

/** Whether a two-word phrase ("test suite", "search engine") is stated, not denied, somewhere in the text. */
export function statesPhrase(text: ReadText, first: Idea, second: Idea): boolean {
  return text.clauses.some((words) =>
    words.some(
      (word, index) => first.test(word) && second.test(words[index + 1] ?? "") && !negated(words, index),
    ),
  );
}
