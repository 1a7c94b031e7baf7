/** Words as a reader counts them: whitespace-separated tokens that contain a letter or a digit. */
export function countWords(text: string): number {
  let count = 0;
  for (const token of text.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(token)) count++;
  return count;
}

const danglingWords = new Set(
  "a an the and or of to in on at by for with from into as than rather but nor so that which who when while if then their its".split(
    " ",
  ),
);

export interface WordLimitResult {
  text: string;
  /** True when the text had to be shortened. */
  shortened: boolean;
  words: number;
}

/**
 * Makes a text fit the word limit without a model: cut at the last clause boundary (, ; : —) that keeps most of the
 * budget, else at the limit. Used only as the last resort (the model is asked to rewrite first), so an entry can never
 * exceed the limit, even when the model keeps writing long ones.
 */
export function enforceWordLimit(text: string, limit: number): WordLimitResult {
  const clean = text.replace(/\s+/g, " ").trim();
  const words = countWords(clean);
  if (words <= limit) return { text: clean, shortened: false, words };
  const tokens = clean.split(" ");
  const kept: string[] = [];
  let counted = 0;
  for (const token of tokens) {
    const isWord = /[\p{L}\p{N}]/u.test(token);
    if (isWord && counted === limit) break;
    kept.push(token);
    if (isWord) counted++;
  }
  // Prefer ending on a sentence, else a clause boundary, when it keeps at least 60% of the budget: a whole sentence
  // or clause reads better than one cut mid-phrase.
  let cut = kept.length;
  let sentence = -1;
  let seen = 0;
  for (let index = 0; index < kept.length; index++) {
    if (/[\p{L}\p{N}]/u.test(kept[index]!)) seen++;
    if (seen < Math.ceil(limit * 0.6)) continue;
    if (/[.!?]$/.test(kept[index]!)) sentence = index + 1;
    else if (/[,;:—]$/.test(kept[index]!)) cut = index + 1;
  }
  if (sentence > 0) cut = sentence;
  const ending = kept.slice(0, cut);
  // A cut sentence should not end on a dangling function word ("... gaps to.").
  while (
    ending.length > 1 &&
    danglingWords.has(
      ending
        .at(-1)!
        .toLowerCase()
        .replace(/[^\p{L}]/gu, ""),
    )
  )
    ending.pop();
  let shortened = ending.join(" ").replace(/[\s,;:—-]+$/u, "");
  if (!/[.!?]$/.test(shortened)) shortened += ".";
  return { text: shortened, shortened: true, words: countWords(shortened) };
}
