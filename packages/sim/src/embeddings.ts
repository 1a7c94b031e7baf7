import { hashString } from "./hash.js";
import { negationWords, tokenize } from "./text/normalize-text.js";

export const defaultEmbeddingDimensions = 256;

/**
 * Everyday English words a paraphrase swaps freely. General vocabulary only: no group is about one task family, and
 * nothing here is shared with the simulated policy. A word of a group adds the group's feature beside its own.
 */
const synonymGroups: readonly (readonly string[])[] = [
  ["verify", "check", "confirm", "validate", "ensure", "double check", "make sure", "cross check"],
  ["count", "tally", "enumerate", "how many"],
  ["include", "inclusive", "included", "contain"],
  ["exclude", "exclusive", "omit", "leave out", "skip", "drop"],
  ["mean", "average", "avg", "expected value"],
  ["latest", "newest", "most recent", "current", "recent"],
  ["oldest", "outdated", "old", "stale", "earlier", "previous"],
  ["official", "primary", "authoritative", "original source"],
  ["convert", "conversion", "translate", "change unit"],
  ["careful", "attention", "mind", "watch", "cautious"],
  ["problem", "question", "task", "exercise"],
  ["compute", "calculate", "evaluate", "determine"],
  ["answer", "result", "solution", "output"],
  ["page", "website", "site", "web page", "source", "article"],
  ["value", "number", "figure", "amount", "quantity"],
  ["range", "interval", "span", "stretch"],
  ["end", "endpoint", "end point", "boundary", "bound", "limit", "edge"],
  ["first", "start", "begin", "initial", "opening"],
  ["last", "final", "closing", "finish"],
  ["intermediate", "partial", "midway", "along the way", "each step"],
  ["round", "rounding", "approximate", "truncate"],
  ["exact", "precise", "full precision", "unrounded"],
  ["original", "base", "baseline"],
  ["twice", "two times", "double"],
  ["once", "one time", "single"],
  ["repeat", "repeated", "duplicate", "multiple times"],
  ["different", "distinct", "unique", "separate"],
  ["group", "class", "category", "cluster", "subgroup"],
  ["size", "headcount", "magnitude"],
  ["weight", "weighted", "proportion"],
  ["percent", "percentage"],
  ["increase", "rise", "grow", "raise"],
  ["decrease", "fall", "drop", "reduce", "cut", "decline"],
  ["remainder", "residue", "modulo", "mod", "modulus"],
  ["negative", "below zero", "minus"],
  ["positive", "above zero", "nonnegative", "non negative"],
  ["line", "straight line"],
  ["segment", "line segment", "piece"],
  ["unit", "measure", "measurement", "units"],
  ["ignore", "disregard", "overlook", "neglect"],
  ["use", "apply", "employ", "utilize"],
  ["snippet", "excerpt", "summary", "preview"],
  ["date", "year", "timestamp", "published"],
  ["root", "zero"],
  ["real", "actual"],
  ["list", "itemize", "tabulate"],
  ["code", "program", "script", "python"],
  ["search", "query", "google"],
  ["trust", "believe", "accept", "rely"],
  ["compare", "contrast", "weigh against"],
  ["order", "ordered", "sequence", "arrangement", "permutation"],
  ["choose", "select", "pick", "combination"],
  ["replace", "replacement", "put back"],
  ["independent", "separately", "unrelated"],
];

interface Phrase {
  tokens: string[];
  feature: string;
}

let phraseIndex: Map<string, Phrase[]> | undefined;

function buildPhraseIndex(): Map<string, Phrase[]> {
  const index = new Map<string, Phrase[]>();
  synonymGroups.forEach((group, g) => {
    for (const phrase of group) {
      const tokens = tokenize(phrase);
      if (tokens.length === 0) continue;
      const list = index.get(tokens[0]!) ?? [];
      list.push({ tokens, feature: `syn:${g}` });
      index.set(tokens[0]!, list);
    }
  });
  return index;
}

/** The synonym groups (as `syn:N` labels) a token sequence starts at position `i` with, and how many tokens each covers. */
function phrasesAt(tokens: readonly string[], i: number): Phrase[] {
  phraseIndex ??= buildPhraseIndex();
  return (phraseIndex.get(tokens[i]!) ?? []).filter((phrase) =>
    phrase.tokens.every((token, j) => tokens[i + j] === token),
  );
}

/**
 * Stemmed content words of a text with each word that belongs to a general synonym group replaced by the group's
 * label (`syn:3`), so "confirm" and "verify" meet. Used by the embeddings and by the simulated curator's word overlap.
 */
export function canonicalTokens(text: string): string[] {
  const tokens = tokenize(text);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    const phrase = phrasesAt(tokens, i).sort((a, b) => b.tokens.length - a.tokens.length)[0];
    if (phrase) {
      out.push(phrase.feature);
      i += phrase.tokens.length;
    } else {
      out.push(tokens[i]!);
      i += 1;
    }
  }
  return out;
}

function features(text: string): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, { weight: number; count: number }>();
  const bump = (feature: string, weight: number) => {
    const seen = counts.get(feature);
    if (seen) seen.count += 1;
    else counts.set(feature, { weight, count: 1 });
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const numeric = /^\d+$/.test(token);
    // Negation words carry direction, not topic: they weigh little in what a text is about.
    bump(`word:${token}`, negationWords.has(token) ? 0.3 : numeric ? 0.5 : 1);
    for (const phrase of phrasesAt(tokens, i)) bump(phrase.feature, 1.5);
    if (i + 1 < tokens.length) bump(`pair:${token} ${tokens[i + 1]}`, 0.5);
    // Character trigrams: morphological variants and compounds ("endpoint", "ends") share some features.
    if (!numeric && token.length >= 3) {
      const padded = `<${token}>`;
      for (let c = 0; c + 3 <= padded.length; c++) bump(`tri:${padded.slice(c, c + 3)}`, 0.25);
    }
  }
  // Diminishing returns: a word repeated five times is not five times the topic.
  const out = new Map<string, number>();
  for (const [feature, { weight, count }] of counts) out.set(feature, weight * Math.sqrt(count));
  return out;
}

/**
 * A deterministic embedding of the text alone: stemmed words, general synonyms, word pairs and character trigrams,
 * feature-hashed into `dimensions` signed buckets and L2-normalised. Paraphrases share words, synonyms and word
 * pieces and land close; unrelated texts share almost none. Simulated, not a learned model.
 */
export function embedText(text: string, dimensions: number = defaultEmbeddingDimensions): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, weight] of features(text)) {
    const h = hashString(feature, 1);
    const index = h % dimensions;
    const sign = Math.floor(h / dimensions) % 2 === 0 ? 1 : -1;
    vector[index]! += sign * weight;
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(norm);
  return vector.map((v) => v * scale);
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Float32 little-endian base64, the encoding the openai client asks for by default. */
export function embeddingToBase64(vector: readonly number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}
