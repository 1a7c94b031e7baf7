import { type NormalizedText, normalizeText } from "../text/normalize-text.js";
import { type ConceptMatch, type LessonDirection, matchConcept } from "./concept.js";
import { mathPitfalls } from "./math-pitfalls.js";
import type { Pitfall } from "./pitfall.js";
import { webPitfalls } from "./web-pitfalls.js";

export const allPitfalls: readonly Pitfall[] = [...mathPitfalls, ...webPitfalls];

const byId = new Map(allPitfalls.map((pitfall) => [pitfall.id, pitfall]));

export function getPitfall(id: string): Pitfall | undefined {
  return byId.get(id);
}

export interface LessonClassification {
  pitfall: Pitfall;
  match: ConceptMatch;
}

// Library lines and proposals recur across calls (every prompt repeats the library): classify each text once.
const classified = new Map<string, readonly LessonClassification[]>();

/**
 * Which pitfall concepts a text talks about, strongest first (a merged lesson may cover two). Unrelated text gives
 * an empty list. The result is shared: do not mutate it.
 */
export function classifyText(
  text: string | NormalizedText,
  pitfalls: readonly Pitfall[] = allPitfalls,
): readonly LessonClassification[] {
  if (typeof text === "string" && pitfalls === allPitfalls) {
    let hit = classified.get(text);
    if (!hit) {
      if (classified.size > 20_000) classified.clear();
      hit = classifyUncached(normalizeText(text), pitfalls);
      classified.set(text, hit);
    }
    return hit;
  }
  return classifyUncached(typeof text === "string" ? normalizeText(text) : text, pitfalls);
}

function classifyUncached(normalized: NormalizedText, pitfalls: readonly Pitfall[]): LessonClassification[] {
  const out: LessonClassification[] = [];
  for (const pitfall of pitfalls) {
    const match = matchConcept(pitfall.concept, normalized);
    if (match.matched) out.push({ pitfall, match });
  }
  return out.sort(
    (a, b) => b.match.groupsHit + Math.abs(b.match.score) - (a.match.groupsHit + Math.abs(a.match.score)),
  );
}

/** The main concept of a text (or null) and its direction. */
export function primaryConcept(
  text: string | NormalizedText,
): { pitfall: Pitfall; direction: LessonDirection } | null {
  const first = classifyText(text)[0];
  return first ? { pitfall: first.pitfall, direction: first.match.direction } : null;
}

/** Generic advice: sounds useful, addresses no pitfall (vague noise and most "direct" lessons). */
export const genericLessons: Record<"math" | "web", readonly string[]> = {
  math: [
    "Be careful with calculations.",
    "Double-check your work before answering.",
    "When solving a problem, read the question carefully and identify what is asked.",
    "When a computation is long, break the problem into smaller steps.",
    "Use the code interpreter to check arithmetic instead of computing by hand.",
    "When several methods are possible, pick the simplest one first.",
    "Verify the final answer with a second independent method when time allows.",
    "Write clean code with all imports in one block.",
  ],
  web: [
    "Be careful when searching.",
    "Use precise search queries with the entity's full name.",
    "When a search returns nothing useful, rephrase the query with different keywords.",
    "Read the question carefully and identify the exact fact requested.",
    "Keep answers short and give only the value asked for.",
    "When a page is long, search within it for the relevant section.",
  ],
};
