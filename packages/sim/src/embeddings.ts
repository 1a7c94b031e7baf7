import { hashString } from "./hash.js";
import { allPitfalls } from "./pitfalls/catalog.js";
import { tokenize } from "./text/normalize-text.js";

export const defaultEmbeddingDimensions = 256;

// Synonyms beyond the pitfall concepts: everyday words a paraphrase swaps freely.
const extraSynonyms: readonly (readonly string[])[] = [
  ["verify", "check", "confirm", "validate", "ensure", "double check", "make sure"],
  ["count", "tally", "number of", "how many", "enumerate"],
  ["include", "inclusive", "contain", "keep"],
  ["exclude", "omit", "skip", "drop", "leave out"],
  ["mean", "average", "avg"],
  ["latest", "newest", "most recent", "current", "up to date"],
  ["official", "primary", "authoritative"],
  ["convert", "conversion", "translate unit"],
  ["careful", "attention", "mind", "watch"],
  ["problem", "question", "task", "exercise"],
  ["compute", "calculate", "work out", "evaluate"],
  ["answer", "result", "solution", "output"],
  ["page", "website", "site", "web page", "source"],
  ["value", "number", "figure", "amount", "quantity"],
];

interface PhraseFeature {
  tokens: string[];
  feature: string;
}

let phraseIndex: Map<string, PhraseFeature[]> | undefined;

function buildPhraseIndex(): Map<string, PhraseFeature[]> {
  const index = new Map<string, PhraseFeature[]>();
  const add = (phrase: string, feature: string) => {
    const tokens = tokenize(phrase);
    if (tokens.length === 0) return;
    const list = index.get(tokens[0]!) ?? [];
    list.push({ tokens, feature });
    index.set(tokens[0]!, list);
  };
  // Only the defining (required) term groups of each concept: their terms are specific ("endpoint",
  // "discriminant"); the supporting groups hold common words ("count", "page") that would pull unrelated texts together.
  for (const pitfall of allPitfalls) {
    for (const g of pitfall.concept.required) {
      for (const phrase of pitfall.concept.groups[g] ?? []) add(phrase, `concept:${pitfall.id}:${g}`);
    }
  }
  extraSynonyms.forEach((group, g) => {
    for (const phrase of group) add(phrase, `synonym:${g}`);
  });
  return index;
}

function features(text: string): Map<string, number> {
  phraseIndex ??= buildPhraseIndex();
  const tokens = tokenize(text);
  const out = new Map<string, number>();
  const bump = (feature: string, weight: number) => out.set(feature, (out.get(feature) ?? 0) + weight);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    bump(`word:${token}`, 1);
    for (const phrase of phraseIndex.get(token) ?? []) {
      let matches = true;
      for (let j = 1; j < phrase.tokens.length; j++) if (tokens[i + j] !== phrase.tokens[j]) matches = false;
      if (matches) bump(phrase.feature, 1.6);
    }
  }
  // Diminishing returns: a word repeated five times is not five times the topic.
  for (const [feature, weight] of out) out.set(feature, Math.sqrt(weight));
  return out;
}

/**
 * A deterministic embedding: stemmed words and concept/synonym features hashed into `dimensions` signed buckets,
 * L2-normalised. Paraphrases share concept features and land close; unrelated texts share almost none.
 * Simulated, not a learned model.
 */
export function embedText(text: string, dimensions: number = defaultEmbeddingDimensions): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, weight] of features(text)) {
    for (let probe = 0; probe < 2; probe++) {
      const h = hashString(feature, probe + 1);
      const index = h % dimensions;
      const sign = Math.floor(h / dimensions) % 2 === 0 ? 1 : -1;
      vector[index]! += sign * weight;
    }
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
