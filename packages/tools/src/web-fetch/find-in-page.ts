import { tokenize } from "../web-search/text-tokens.js";

export interface PageMatch {
  /** The matching paragraph with its neighbours, as Markdown. */
  text: string;
  /** Index of the matching paragraph among the page's paragraphs. */
  paragraph: number;
  /** "exact": the phrase itself occurs; "words": all its words occur in the paragraph (a looser fallback). */
  kind: "exact" | "words";
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[*_`]/g, "").replace(/\s+/g, " ");
}

/**
 * The paragraphs around each occurrence of a phrase: what a person does with Ctrl+F on a long page. When the
 * exact phrase is absent, paragraphs holding all of its words are returned instead (marked as such).
 */
export function findInPage(
  markdown: string,
  phrase: string,
  { maxMatches = 8, context = 1 }: { maxMatches?: number; context?: number } = {},
): PageMatch[] {
  const paragraphs = markdown.split(/\n\s*\n/).filter((paragraph) => paragraph.trim());
  const needle = normalize(phrase).trim();
  if (!needle) return [];
  let kind: PageMatch["kind"] = "exact";
  let hits = paragraphs.flatMap((paragraph, index) => (normalize(paragraph).includes(needle) ? [index] : []));
  if (hits.length === 0) {
    const words = [...new Set(tokenize(phrase))];
    if (words.length === 0) return [];
    kind = "words";
    hits = paragraphs.flatMap((paragraph, index) => {
      const present = new Set(tokenize(paragraph));
      return words.every((word) => present.has(word)) ? [index] : [];
    });
  }
  const matches: PageMatch[] = [];
  let coveredUntil = -1;
  for (const index of hits) {
    if (matches.length >= maxMatches) break;
    // Neighbouring hits share one window instead of repeating the same paragraphs.
    if (index <= coveredUntil) continue;
    const start = Math.max(0, index - context, coveredUntil + 1);
    const end = Math.min(paragraphs.length - 1, index + context);
    matches.push({ text: paragraphs.slice(start, end + 1).join("\n\n"), paragraph: index, kind });
    coveredUntil = end;
  }
  return matches;
}
