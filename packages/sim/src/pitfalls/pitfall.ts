import type { ConceptSpec } from "./concept.js";

export type SimDomain = "math" | "web";

/**
 * A hidden trap of a task family. The simulated policy falls into it unless a lesson in its prompt addresses the
 * concept in the right direction; its "Approach:" sentences reveal which way it went, so a critic reading the
 * trajectory can tell (the sentences are written to classify under `concept`).
 */
export interface Pitfall {
  id: string;
  domain: SimDomain;
  /** Short human name of the trap. */
  title: string;
  concept: ConceptSpec;
  /** The policy's own words when it falls in / avoids the trap (each one "Approach: ..." sentence). */
  approach: { fallen: string; avoided: string };
  /** What a critic writes after "ERROR -" for this trap. */
  error: string;
  /** What a critic writes for an attempt that avoided the trap. */
  success: string;
  /** Good lessons (<= 32 words, starting with when they apply): the paraphrases a critic proposes. */
  lessons: readonly string[];
  /** Lessons pointing the wrong way (noise: contradictory proposals). */
  opposite: readonly string[];
  /** Lessons naming the concept without a direction (noise: vague proposals). */
  vague: readonly string[];
  /** Consolidated phrasings a curator writes when merging lessons about this trap (<= 28 words). */
  merged: readonly string[];
}
