import type { CuratorConfigInput } from "@tfgrpo/curator";

/** No count of showings is evidence online: the lifecycle's mean-delta fallback never has enough of it. */
export const onlineMinEvidence = Number.MAX_SAFE_INTEGER;

/**
 * The curator settings online learning runs with: the caller's, with the lifecycle deciding on contrasts only (the
 * service's varied exposure, settled within strata of similar tasks by the store). The lifecycle's fallback for an
 * entry without a contrast, the mean of reward - baseline over `minEvidence` showings, is shared by everything shown
 * together and follows the traffic (four showings with one success archived a candidate 10 points better about one
 * time in six): online, a candidate is never archived, nor promoted, on it.
 */
export function onlineCuratorConfig(
  input: CuratorConfigInput | undefined,
  overrides: Omit<CuratorConfigInput, "lifecycle"> = {},
): CuratorConfigInput {
  return {
    ...input,
    ...overrides,
    lifecycle: {
      minContrasts: 12,
      harmMargin: 0.05,
      // Two versions a reflection: 30 reflections before an unproven candidate is dropped, and a looser level for
      // calling a candidate safe (promotion is reversible: an active entry keeps its contrast and can be demoted);
      // online-candidate-lifecycle.test.ts measures both.
      staleAfterVersions: 60,
      alpha: 0.25,
      ...input?.lifecycle,
      minEvidence: onlineMinEvidence,
    },
  };
}
