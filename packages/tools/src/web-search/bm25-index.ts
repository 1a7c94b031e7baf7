import { tokenize } from "./text-tokens.js";

export interface IndexedDocument {
  url: string;
  title: string;
  /** Plain text (markup removed), used for scoring and for snippets. */
  text: string;
}

export interface Bm25Hit {
  document: IndexedDocument;
  score: number;
  snippet: string;
}

export interface Bm25Index {
  readonly size: number;
  search(query: string, limit: number): Bm25Hit[];
}

const k1 = 1.2;
const b = 0.75;
/** Title words count this many times: a page titled with the query terms is usually the page asked for. */
const titleWeight = 3;
const snippetChars = 320;

/** Okapi BM25 over title + text with an inverted index; the snippet is the passage that matches the query best. */
export function createBm25Index(documents: readonly IndexedDocument[]): Bm25Index {
  const postings = new Map<string, { doc: number; tf: number }[]>();
  const lengths = new Float64Array(documents.length);
  documents.forEach((document, index) => {
    const counts = new Map<string, number>();
    const add = (token: string, weight: number) => counts.set(token, (counts.get(token) ?? 0) + weight);
    let length = 0;
    for (const token of tokenize(document.title)) {
      add(token, titleWeight);
      length += titleWeight;
    }
    for (const token of tokenize(document.text)) {
      add(token, 1);
      length++;
    }
    lengths[index] = length;
    for (const [token, tf] of counts) {
      let list = postings.get(token);
      if (!list) {
        list = [];
        postings.set(token, list);
      }
      list.push({ doc: index, tf });
    }
  });
  const averageLength =
    documents.length === 0 ? 0 : lengths.reduce((sum, value) => sum + value, 0) / documents.length;
  const idf = (token: string) => {
    const df = postings.get(token)?.length ?? 0;
    return Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
  };

  return {
    size: documents.length,
    search(query, limit) {
      const terms = [...new Set(tokenize(query))];
      const scores = new Map<number, number>();
      for (const term of terms) {
        const list = postings.get(term);
        if (!list) continue;
        const weight = idf(term);
        for (const { doc, tf } of list) {
          const norm = tf + k1 * (1 - b + (b * lengths[doc]!) / (averageLength || 1));
          scores.set(doc, (scores.get(doc) ?? 0) + (weight * (tf * (k1 + 1))) / norm);
        }
      }
      // Ties keep corpus order, so results are deterministic.
      const ranked = [...scores.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, limit);
      const termWeights = new Map(terms.map((term) => [term, idf(term)]));
      return ranked.map(([doc, score]) => ({
        document: documents[doc]!,
        score: Math.round(score * 1000) / 1000,
        snippet: bestPassage(documents[doc]!.text, termWeights),
      }));
    },
  };
}

/** The window of a few sentences holding the most (idf-weighted) distinct query terms, trimmed to a snippet. */
export function bestPassage(text: string, termWeights: ReadonlyMap<string, number>): string {
  const sentences = text
    .split(/(?<=[.!?。！？])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  if (sentences.length === 0) return "";
  const sentenceTerms = sentences.map((sentence) => new Set(tokenize(sentence)));
  let best = 0;
  let bestScore = -1;
  for (let start = 0; start < sentences.length; start++) {
    const seen = new Set<string>();
    for (let offset = 0; offset < 3 && start + offset < sentences.length; offset++) {
      for (const token of sentenceTerms[start + offset]!) if (termWeights.has(token)) seen.add(token);
    }
    let score = 0;
    for (const token of seen) score += termWeights.get(token)!;
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  let passage = sentences.slice(best, best + 3).join(" ");
  const prefix = best > 0 ? "… " : "";
  if (passage.length > snippetChars) {
    const cut = passage.lastIndexOf(" ", snippetChars);
    passage = `${passage.slice(0, cut > snippetChars / 2 ? cut : snippetChars)} …`;
  } else if (best + 3 < sentences.length) {
    passage += " …";
  }
  return prefix + passage;
}
