/** Where a final answer was found in a response, most to least explicit. */
export type AnswerSource = "boxed" | "answer-phrase" | "whole" | "inline-math" | "last-number";

export interface ExtractedAnswer {
  answer: string;
  source: AnswerSource;
}

// A response longer than this is cut from the front before searching: answers are at the end, and the regexes
// below must not run on megabytes of pasted tool output.
const maxScannedChars = 20_000;
// Up to this many prose words, a response is taken to be the answer itself ("x = 2 or x = 3", "no solution").
const maxWordsOfWholeAnswer = 3;

/**
 * Finds the final answer in a model response: the last `\boxed{}` (or `\fbox{}`), else the last "answer is ..." /
 * "Answer: ...", else the whole text when it is short and not prose, else the last inline math, else the last
 * number. Returns null when there is nothing that looks like an answer (an empty box counts as an empty answer).
 */
export function extractAnswer(response: string | null | undefined): ExtractedAnswer | null {
  if (response === null || response === undefined) return null;
  let text = response.length > maxScannedChars ? response.slice(-maxScannedChars) : response;
  text = text.replace(/\*\*|__/g, "").trim();
  if (text === "") return null;

  const boxed = lastBoxed(text);
  if (boxed !== null) return { answer: boxed.trim(), source: "boxed" };

  const phrase = afterAnswerPhrase(text);
  if (phrase !== null) return { answer: phrase, source: "answer-phrase" };

  const hasMathDelimiters = /\$|\\\(|\\\[/.test(text);
  if (!hasMathDelimiters && proseWords(text) <= maxWordsOfWholeAnswer && text.length <= 200) {
    return { answer: stripSentenceEnd(text), source: "whole" };
  }
  if (hasMathDelimiters) {
    const outside = text.replace(/\$\$[\s\S]*?\$\$|\$[^$]*\$|\\\([\s\S]*?\\\)|\\\[[\s\S]*?\\\]/g, " ");
    if (proseWords(outside) === 0 && text.length <= 200) {
      return { answer: stripSentenceEnd(text), source: "whole" };
    }
    const math = lastInlineMath(text);
    if (math !== null) return { answer: math, source: "inline-math" };
  }
  const number = lastNumber(text);
  if (number !== null) return { answer: number, source: "last-number" };
  return null;
}

/** Content of the last `\boxed{...}` / `\fbox{...}` with balanced braces; `\boxed 5` takes the next token. */
function lastBoxed(text: string): string | null {
  const pattern = /\\(?:boxed|fbox)\s*/g;
  let last: RegExpExecArray | null = null;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) last = match;
  if (last === null) return null;
  const start = last.index + last[0].length;
  if (text[start] !== "{") {
    const token = /^[^\s$\\]+/.exec(text.slice(start));
    return token ? token[0] : "";
  }
  const content = readBraced(text, start);
  // An unclosed box (a truncated response) still says what the model meant to answer.
  return content ?? text.slice(start + 1);
}

/** Text inside the braces opening at `open` (balanced, honouring `\{`), or null if they never close. */
export function readBraced(text: string, open: number): string | null {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === "\\") {
      index++;
      continue;
    }
    if (char === "{") depth++;
    else if (char === "}") {
      depth--;
      if (depth === 0) return text.slice(open + 1, index);
    }
  }
  return null;
}

function afterAnswerPhrase(text: string): string | null {
  const pattern = /\banswer\s*(?:is\b|:|=)\s*:?[ \t]*/gi;
  let last: RegExpExecArray | null = null;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) last = match;
  if (last === null) return null;
  const rest = text.slice(last.index + last[0].length);
  const lines = rest.split("\n");
  let line = lines[0]?.trim() ?? "";
  if (line === "") line = lines.find((candidate) => candidate.trim() !== "")?.trim() ?? "";
  if (line === "") return null;
  // "The answer is 42. Let me double-check..." keeps only the first sentence; a decimal point has no space after it.
  const sentence = line.split(/\.\s+(?=[A-Z])/)[0] ?? line;
  const answer = stripSentenceEnd(sentence);
  return answer === "" ? null : answer;
}

function lastInlineMath(text: string): string | null {
  const pattern = /\$\$([\s\S]*?)\$\$|\$([^$]+)\$|\\\(([\s\S]*?)\\\)|\\\[([\s\S]*?)\\\]/g;
  let last: string | null = null;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const content = (match[1] ?? match[2] ?? match[3] ?? match[4] ?? "").trim();
    if (content !== "") last = content;
  }
  return last === null ? null : stripSentenceEnd(last);
}

function lastNumber(text: string): string | null {
  const matches = text.match(/[-−]?\d[\d,]*(?:\.\d+)?|[-−]?\.\d+/g);
  if (!matches) return null;
  const last = matches[matches.length - 1]!;
  // "so 42," ends with a comma that belongs to the sentence, not to the number.
  return last.replace(/,+$/, "");
}

/** Words of two or more letters that are not LaTeX commands (`\text` is markup, `Monday` is a word). */
function proseWords(text: string): number {
  const words = text.replace(/\\[a-zA-Z]+/g, " ").match(/[A-Za-z]{2,}/g);
  return words ? words.length : 0;
}

function stripSentenceEnd(text: string): string {
  return text
    .trim()
    .replace(/[.;,!]+$/, "")
    .trim();
}
