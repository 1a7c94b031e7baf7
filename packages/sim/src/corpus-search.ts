import type { CorpusDocument, CorpusWorld } from "./corpus.js";
import { tokenize } from "./text/normalize-text.js";

export interface CorpusSearchResult {
  title: string;
  url: string;
  /** The page's meta description, as most search engines show it. */
  snippet: string;
  published?: string;
}

interface IndexedDocument {
  doc: CorpusDocument;
  weights: Map<string, number>;
  length: number;
}

interface CorpusIndex {
  documents: IndexedDocument[];
  documentFrequency: Map<string, number>;
  averageLength: number;
}

const indexes = new WeakMap<CorpusWorld, CorpusIndex>();

/** Visible text of a page: the article when there is one (what a readability extractor keeps), else the body. */
export function htmlToText(html: string): string {
  const article =
    /<article[^>]*>([\s\S]*?)<\/article>/i.exec(html)?.[1] ??
    /<body[^>]*>([\s\S]*?)<\/body>/i.exec(html)?.[1] ??
    html;
  return article
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<\/(p|h[1-6]|tr|li|dd|dt|table|dl)>/gi, "\n")
    .replace(/<(th|td)[^>]*>/gi, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&copy;/g, "©")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*/g, "\n")
    .trim();
}

function buildIndex(world: CorpusWorld): CorpusIndex {
  const documentFrequency = new Map<string, number>();
  const documents = world.documents.map((doc) => {
    const weights = new Map<string, number>();
    const addAll = (text: string, weight: number) => {
      for (const token of tokenize(text)) weights.set(token, (weights.get(token) ?? 0) + weight);
    };
    addAll(doc.title, 3);
    addAll(doc.description, 2);
    addAll(htmlToText(doc.content), 1);
    for (const token of weights.keys()) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
    let length = 0;
    for (const weight of weights.values()) length += weight;
    return { doc, weights, length };
  });
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, documents.length);
  return { documents, documentFrequency, averageLength };
}

/** BM25 over title, description and article text of the simulated web. Deterministic (ties by URL). */
export function searchCorpus(world: CorpusWorld, query: string, maxResults = 5): CorpusSearchResult[] {
  let index = indexes.get(world);
  if (!index) {
    index = buildIndex(world);
    indexes.set(world, index);
  }
  const terms = [...new Set(tokenize(query))];
  const total = index.documents.length;
  const scored: { doc: CorpusDocument; score: number }[] = [];
  for (const entry of index.documents) {
    let score = 0;
    for (const term of terms) {
      const tf = entry.weights.get(term);
      if (!tf) continue;
      const df = index.documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * entry.length) / index.averageLength));
    }
    if (score > 0) scored.push({ doc: entry.doc, score });
  }
  scored.sort((a, b) => b.score - a.score || a.doc.url.localeCompare(b.doc.url));
  return scored.slice(0, Math.max(0, maxResults)).map(({ doc }) => ({
    title: doc.title,
    url: doc.url,
    snippet: doc.description,
    ...(doc.published ? { published: doc.published } : {}),
  }));
}

/** The numbered list a web_search tool returns (title, url, snippet), as the prompt contract describes. */
export function formatSearchResults(results: readonly CorpusSearchResult[]): string {
  if (results.length === 0) return "No results.";
  return results
    .map(
      (r, i) =>
        `${i + 1}. ${r.title}\n   URL: ${r.url}\n   ${r.published ? `(${r.published}) ` : ""}${r.snippet}`,
    )
    .join("\n");
}
