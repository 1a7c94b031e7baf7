import type { FallProbabilities } from "./behaviour.js";
import { type ConceptMatch, matchConcept } from "./pitfalls/concept.js";
import type { Pitfall } from "./pitfalls/pitfall.js";
import type { ExperienceLine } from "./text/experience-lines.js";
import { type NormalizedText, normalizeText } from "./text/normalize-text.js";

export type AddressStatus = keyof FallProbabilities;

export interface PitfallReading {
  status: AddressStatus;
  /** Ids of lines addressing the pitfall the right way / the wrong way / naming it without direction. */
  helping: string[];
  hurting: string[];
  neutral: string[];
}

// Prompts repeat the same lines thousands of times in a run: normalise each distinct line once.
const normalizedCache = new Map<string, NormalizedText>();

export function normalizedLine(text: string): NormalizedText {
  let hit = normalizedCache.get(text);
  if (!hit) {
    if (normalizedCache.size > 20_000) normalizedCache.clear();
    hit = normalizeText(text);
    normalizedCache.set(text, hit);
  }
  return hit;
}

// The same (pitfall, line) pairs come back in every request of a run: match each pair once.
const matchCache = new Map<string, ConceptMatch>();

function cachedMatch(pitfall: Pitfall, text: string): ConceptMatch {
  const key = `${pitfall.id}\u0000${text}`;
  let hit = matchCache.get(key);
  if (!hit) {
    if (matchCache.size > 50_000) matchCache.clear();
    hit = matchConcept(pitfall.concept, normalizedLine(text));
    matchCache.set(key, hit);
  }
  return hit;
}

/** What the experience lines of a prompt say about one pitfall. */
export function readPitfall(pitfall: Pitfall, lines: readonly ExperienceLine[]): PitfallReading {
  const helping: string[] = [];
  const hurting: string[] = [];
  const neutral: string[] = [];
  for (const line of lines) {
    const match = cachedMatch(pitfall, line.text);
    if (!match.matched) continue;
    if (match.direction === "helps") helping.push(line.id);
    else if (match.direction === "hurts") hurting.push(line.id);
    else neutral.push(line.id);
  }
  const status: AddressStatus =
    helping.length > 0 && hurting.length > 0
      ? "conflict"
      : helping.length > 0
        ? "helps"
        : hurting.length > 0
          ? "hurts"
          : neutral.length > 0
            ? "neutral"
            : "none";
  return { status, helping, hurting, neutral };
}
