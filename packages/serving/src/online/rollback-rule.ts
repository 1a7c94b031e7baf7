import { type MeanDifference, twoSampleMeanDifference } from "@tfgrpo/protocol";

export interface RollbackCheck {
  rollback: boolean;
  /** Whether this outcome closed a window with enough reference to judge (nothing is decided in between). */
  judged: boolean;
  /** Success rate of the served version's outcomes so far (null before its first full window). */
  servedRate: number | null;
  referenceRate: number | null;
  /** referenceRate - servedRate. */
  drop: number | null;
  window: number;
  /** The test of served - reference at this look (null when not judged). */
  test: MeanDifference | null;
}

const rate = (values: readonly boolean[]) => values.filter(Boolean).length / values.length;
const scores = (values: readonly boolean[]) => values.map((value) => (value ? 1 : 0));

/**
 * The automatic rollback rule (seed 002 §4.2 "otherwise roll back", online), judged per window, never per outcome: each
 * time the served version completes a window of outcomes, and only when the reference (the previous version's
 * outcomes) has at least `minReference`, a one-sided Welch test compares all the served version's outcomes so far with
 * the reference (the statistics of the offline gate, `twoSampleMeanDifference`). It rolls back when the upper
 * (1 - alpha / looks) bound of served - reference is below -margin: the served version is worse by more than the
 * margin with confidence. Splitting alpha over the `looks` a version gets (Bonferroni) keeps the chance of rolling
 * back a version that is not worse at most alpha over all its windows.
 */
export function checkRollback(input: {
  served: readonly boolean[];
  reference: readonly boolean[];
  window: number;
  /** How many windows this version is judged over at most (alpha is split over them). */
  looks: number;
  minReference: number;
  alpha: number;
  margin: number;
}): RollbackCheck {
  const full = input.served.length >= input.window;
  const servedRate = full ? rate(input.served) : null;
  const referenceRate = input.reference.length === 0 ? null : rate(input.reference);
  const drop = servedRate === null || referenceRate === null ? null : referenceRate - servedRate;
  const judged =
    full && input.served.length % input.window === 0 && input.reference.length >= input.minReference;
  const test = judged
    ? twoSampleMeanDifference(scores(input.served), scores(input.reference), {
        alpha: input.alpha / Math.max(1, input.looks),
      })
    : null;
  return {
    rollback: test !== null && test.upper < -input.margin - 1e-12,
    judged,
    servedRate,
    referenceRate,
    drop,
    window: input.window,
    test,
  };
}

const show = (value: number | null) => (value === null ? "n/a" : value.toFixed(3));

/** The stored message of a head's rollback, with the numbers behind it. */
export function rollbackMessage(
  from: number,
  to: number | null,
  check: RollbackCheck,
  referenceOutcomes: number,
  margin: number,
): string {
  const test = check.test;
  return (
    `online rollback: v${from} succeeded on ${show(check.servedRate)} of its ${test ? test.n : 0} tasks vs ` +
    `${show(check.referenceRate)} of the previous version's ${referenceOutcomes}: difference ` +
    `${show(test?.estimate ?? null)}, ${show(1 - (test?.alpha ?? 0))} upper bound ${show(test?.upper ?? null)} below ` +
    `-${show(margin)} (${to === null ? "the empty library" : `v${to}`})`
  );
}
