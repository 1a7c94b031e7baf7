/**
 * A small, deterministic text normaliser shared by the concept matcher and the embeddings: lower case, contractions
 * expanded to "not", stop words dropped, a light suffix-stripping stemmer. Lessons, prompts and concept definitions
 * all pass through the same function, so "including", "include" and "included" meet on one stem.
 */

export interface NormalizedText {
  tokens: string[];
  /** Clause index of each token: negation ("do not ...") only reaches within its own clause. */
  clauses: number[];
}

const stopWords = new Set(
  (
    "a an the of to is are was were be been being for in on at by with and or as it its this that these those " +
    "from into when whenever which so than then there their them they we you your i will would should must can " +
    "could do does did has have had may might also just very any some such s t up out if what how our"
  ).split(" "),
);

// Kept apart from stop words on purpose: they carry direction.
export const negationWords = new Set(["not", "no", "never", "without", "avoid", "instead", "rather", "nor"]);

const irregular: Record<string, string> = {
  ends: "end",
  both: "both",
  always: "always",
  analysis: "analysis",
  less: "less",
  unless: "unless",
  has: "has",
  is: "is",
  was: "was",
  this: "this",
  its: "its",
  percentages: "percent",
  percentage: "percent",
  "%": "percent",
  latest: "latest",
  newest: "newest",
  oldest: "oldest",
  kilograms: "kg",
  kilogram: "kg",
  grams: "gram",
  kilometres: "km",
  kilometers: "km",
  kilometre: "km",
  kilometer: "km",
  hours: "hour",
  minutes: "minute",
};

export function stem(word: string): string {
  const known = irregular[word];
  if (known !== undefined) return known;
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is"))
    w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  // Doubled final consonant after -ing/-ed ("rounded" is fine, "dropped" -> "dropp"): undo it.
  if (w.length > 4 && w.at(-1) === w.at(-2) && !"aeiouls".includes(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

const clauseBreak = /[;:,!?()[\]{}\n]|\.(?=\s|$)/;

export function normalizeText(text: string): NormalizedText {
  const tokens: string[] = [];
  const clauses: number[] = [];
  const expanded = text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/n't\b/g, " not")
    .replace(/%/g, " percent ");
  const parts = expanded.split(clauseBreak);
  parts.forEach((part, clause) => {
    if (part === undefined) return;
    for (const raw of part.split(/[^a-z0-9]+/)) {
      if (raw === "" || stopWords.has(raw)) continue;
      const token = raw === "don" || raw === "doesn" || raw === "isn" || raw === "aren" ? "not" : stem(raw);
      if (token === "" || stopWords.has(token)) continue;
      tokens.push(token);
      clauses.push(clause);
    }
  });
  return { tokens, clauses };
}

/** Stemmed tokens only (for phrase definitions and embeddings). */
export function tokenize(text: string): string[] {
  return normalizeText(text).tokens;
}
