import { extractAnswer } from "../math/extract-answer.js";

/** The answer part of a response for text matching: the last `\boxed{}` when there is one, else the whole text. */
export function answerText(response: string | null | undefined): string | null {
  if (response === null || response === undefined) return null;
  const found = extractAnswer(response);
  return found?.source === "boxed" ? found.answer : response.trim();
}

/**
 * Text as graders compare it: LaTeX text wrappers and markdown out, lower case (unless asked), punctuation
 * reduced to spaces, whitespace collapsed.
 */
export function normalizeText(text: string, options: { caseSensitive?: boolean } = {}): string {
  let out = text
    .normalize("NFKC")
    .replace(/\\text(?:bf|it|rm)?\s*\{([^{}]*)\}/g, "$1")
    .replace(/[*_`$]/g, "")
    .replace(/[\s\u00A0]+/g, " ");
  if (!options.caseSensitive) out = out.toLowerCase();
  return out
    .replace(/[^\p{L}\p{N}\s.%+-]/gu, " ")
    .replace(/(?<!\d)\.|\.(?!\d)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
