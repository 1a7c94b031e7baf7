import type { SimNoise } from "../behaviour.js";
import { checkConflict } from "./conflict-check.js";
import { type CuratorOperation, consolidateSuggestions } from "./consolidate-suggestions.js";

export type { CuratorOperation } from "./consolidate-suggestions.js";

export interface SimCuratorOptions {
  seed: number;
  noise: SimNoise;
}

export interface SimCurator {
  consolidate(prompt: string): { operations: CuratorOperation[] };
  conflict(prompt: string): { conflict: boolean; reason: string };
}

/**
 * The simulated curator. It sees only texts, as a real curator model does: it groups suggestions and library lines by
 * similarity, reads each text's direction with its own general reading of English, keeps the majority, merges
 * duplicates within the word limit and drops vague advice. It does not know the world's pitfalls or what the
 * simulated policy reads, so ineffective or harmful lessons get through when they look like good ones.
 */
export function createSimCurator(options: SimCuratorOptions): SimCurator {
  return {
    consolidate: (prompt) => consolidateSuggestions(prompt, options),
    conflict: (prompt) => checkConflict(prompt),
  };
}
