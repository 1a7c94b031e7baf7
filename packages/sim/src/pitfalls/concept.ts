import { type NormalizedText, negationWords, normalizeText, tokenize } from "../text/normalize-text.js";

/**
 * What a lesson must talk about to address a pitfall, and which way it must point. A lesson addresses a pitfall
 * when it mentions the concept (enough of its term groups, each group a set of synonyms or phrases) AND its
 * direction cues point the helpful way. "Exclude the endpoints" mentions the concept but points the harmful way;
 * "do not exclude the endpoints" is negated and helps again. Paraphrases and merged lessons keep working because
 * the test is on stemmed synonyms, not on exact strings.
 */
export interface ConceptSpec {
  /** Term groups; each inner list holds synonyms (words or short phrases). */
  groups: readonly (readonly string[])[];
  /** Indices of groups that must all be present. */
  required: readonly number[];
  /** How many groups must be present in all. */
  minGroups: number;
  /** Phrases that point the right way ("include both endpoints", "verify on the official page"). */
  helpful: readonly string[];
  /** Phrases that point the wrong way ("exclude the endpoints", "answer from the snippet"). */
  harmful: readonly string[];
}

export type LessonDirection = "helps" | "hurts" | "neutral";

export interface ConceptMatch {
  /** The text mentions the concept. */
  matched: boolean;
  groupsHit: number;
  /** Helpful minus harmful cue count (negated cues count the other way). */
  score: number;
  direction: LessonDirection;
}

interface CompiledSpec {
  groups: string[][][];
  cues: { tokens: string[]; sign: 1 | -1 }[];
}

const compiled = new WeakMap<ConceptSpec, CompiledSpec>();

function compile(spec: ConceptSpec): CompiledSpec {
  let out = compiled.get(spec);
  if (out) return out;
  const cues = [
    ...spec.helpful.map((phrase) => ({ tokens: tokenize(phrase), sign: 1 as const })),
    ...spec.harmful.map((phrase) => ({ tokens: tokenize(phrase), sign: -1 as const })),
  ].filter((cue) => cue.tokens.length > 0);
  // Longest cues first, so "round intermediate" wins over "round" and a phrase is counted once.
  cues.sort((a, b) => b.tokens.length - a.tokens.length);
  out = {
    groups: spec.groups.map((group) => group.map((phrase) => tokenize(phrase)).filter((t) => t.length > 0)),
    cues,
  };
  compiled.set(spec, out);
  return out;
}

function occurrences(tokens: readonly string[], phrase: readonly string[]): number[] {
  const found: number[] = [];
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    found.push(i);
  }
  return found;
}

export function matchConcept(spec: ConceptSpec, text: string | NormalizedText): ConceptMatch {
  const normalized = typeof text === "string" ? normalizeText(text) : text;
  const { tokens, clauses } = normalized;
  const { groups, cues } = compile(spec);
  const hit = groups.map((group) => group.some((phrase) => occurrences(tokens, phrase).length > 0));
  const groupsHit = hit.filter(Boolean).length;
  const matched = groupsHit >= spec.minGroups && spec.required.every((index) => hit[index] === true);
  const used = new Array<boolean>(tokens.length).fill(false);
  let score = 0;
  for (const cue of cues) {
    for (const start of occurrences(tokens, cue.tokens)) {
      let free = true;
      for (let k = start; k < start + cue.tokens.length; k++) if (used[k]) free = false;
      if (!free) continue;
      for (let k = start; k < start + cue.tokens.length; k++) used[k] = true;
      let negated = false;
      for (let k = start - 1; k >= Math.max(0, start - 3); k--) {
        if (clauses[k] !== clauses[start]) break;
        if (negationWords.has(tokens[k]!)) negated = !negated;
      }
      score += negated ? -cue.sign : cue.sign;
    }
  }
  const direction: LessonDirection = !matched
    ? "neutral"
    : score > 0
      ? "helps"
      : score < 0
        ? "hurts"
        : "neutral";
  return { matched, groupsHit, score, direction };
}
