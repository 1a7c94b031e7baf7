import { contentStems, words } from "./text-tokens.js";

const conditionOpeners = new Set("when whenever for if in before after during while once unless".split(" "));

/**
 * "Be careful with calculations." is advice no one can act on (seed 002 3.2: rules must be action-level). A lesson is
 * vague when it has fewer than `minContentWords` content words and does not open with the condition it applies to.
 * Deliberately conservative: longer advice is left to the model's judgement. 0 turns the check off.
 */
export function isVagueLesson(text: string, minContentWords: number): boolean {
  if (minContentWords <= 0) return false;
  const first = words(text)[0];
  if (first !== undefined && conditionOpeners.has(first)) return false;
  return contentStems(text).length < minContentWords;
}
