import { cosineSimilarity, embedText } from "../embeddings.js";
import { readPolarity } from "./lesson-polarity.js";
import { contentWords } from "./vagueness.js";

/** What the curator knows of one text: its embedding, its weighted topic words and its polarity. */
export interface TextView {
  text: string;
  vector: number[];
  topic: Map<string, number>;
  polarity: ReturnType<typeof readPolarity>;
}

export function viewText(text: string): TextView {
  const polarity = readPolarity(text);
  const topic = new Map<string, number>();
  for (const word of contentWords(text)) topic.set(word, 1);
  // Antonyms are one topic ("include" and "exclude" both talk about what is in), weighed lightly.
  for (const key of polarity.signs.keys()) if (key.startsWith("pole:")) topic.set(key, 0.5);
  return { text, vector: embedText(text), topic, polarity };
}

/** Weighted word overlap (cosine of the topic-word sets). */
export function wordOverlap(a: TextView, b: TextView): number {
  let shared = 0;
  let na = 0;
  let nb = 0;
  for (const [word, weight] of a.topic) {
    na += weight * weight;
    const other = b.topic.get(word);
    if (other !== undefined) shared += weight * other;
  }
  for (const weight of b.topic.values()) nb += weight * weight;
  return na === 0 || nb === 0 ? 0 : shared / Math.sqrt(na * nb);
}

/** How much two texts are about the same thing: the larger of embedding similarity and word overlap. */
export function topicSimilarity(a: TextView, b: TextView): number {
  return Math.max(cosineSimilarity(a.vector, b.vector), wordOverlap(a, b));
}

/** A few of a text's own concrete words, for a reason line ("integers, closed, range"). */
export function topicLabel(text: string, count = 3, within?: TextView): string {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[a-z][a-z'-]+/g) ?? []) {
    const content = contentWords(word);
    if (content.length === 0 || out.includes(word)) continue;
    if (within && !content.some((token) => within.topic.has(token))) continue;
    out.push(word);
    if (out.length === count) break;
  }
  return out.join(", ");
}
