import type { LessonReadingSpec } from "../policy/lesson-reading-spec.js";

export type SimDomain = "math" | "web" | "tickets" | "retail" | "repair";

/**
 * A hidden trap of a task family: the world's and the policy's knowledge, never another role's. The simulated policy
 * falls into it unless a lesson in its prompt addresses it the right way, judged by `reading` (situation and action,
 * in any wording). The critic, curator, embeddings and direct-experience writer never import this module: they find
 * errors from trajectories and read lessons as text (see docs/sim.md and honesty.test.ts).
 */
export interface Pitfall {
  id: string;
  domain: SimDomain;
  /** Short human name of the trap (for reports and tests). */
  title: string;
  /** How the policy reads a lesson about this trap. */
  reading: LessonReadingSpec;
}
