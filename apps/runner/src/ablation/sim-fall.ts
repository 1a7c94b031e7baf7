import type { FallProbabilities, PolicyBehaviour } from "@tfgrpo/sim";

/**
 * The sim's default policy is weak (it falls into 80% of unaddressed pitfalls: ~20% of math tasks solved without a
 * library), while the paper's ablation is about a strong model (DeepSeek-V3.1: 80.0 / 67.9 on AIME without one).
 * Which setting wins depends on that (docs/ablations.md), so the sim ablation runs a policy of about the paper's
 * strength unless told otherwise: 25% (no library: about 70% of the sim's math tasks with tools, 55-60% without).
 */
export const paperSimFall = 0.25;

/**
 * The sim's own policy's chance (`defaultPolicyBehaviour.fall.none`), written here for the help text, which is built
 * before anything loads the sim (only `--sim` does); ablate.test.ts checks the two agree.
 */
export const simOwnFall = 0.8;

/**
 * A sim policy whose chance of falling into a pitfall nothing in its prompt addresses is `fall` (with tools), every
 * other chance scaled with it (a helpful lesson still cuts it by the same factor), except a lesson pointing the wrong
 * way, which misleads a strong model as much as a weak one.
 */
export function simBehaviour(fall: number, defaults: PolicyBehaviour): Partial<PolicyBehaviour> {
  const ratio = fall / defaults.fall.none;
  const scaled = (chances: FallProbabilities): FallProbabilities => ({
    none: Math.min(1, chances.none * ratio),
    helps: Math.min(1, chances.helps * ratio),
    neutral: Math.min(1, chances.neutral * ratio),
    conflict: Math.min(1, chances.conflict * ratio),
    hurts: chances.hurts,
  });
  return { fall: scaled(defaults.fall), directFall: scaled(defaults.directFall) };
}
