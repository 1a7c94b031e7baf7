export interface RollbackCheck {
  rollback: boolean;
  /** Success rate of the served version's last `window` outcomes (null while it has fewer). */
  servedRate: number | null;
  referenceRate: number | null;
  /** referenceRate - servedRate. */
  drop: number | null;
  window: number;
}

const rate = (values: readonly boolean[]) => values.filter(Boolean).length / values.length;

/**
 * The automatic rollback rule (seed 002 §4.2 "otherwise roll back", online): the served version is rolled back when
 * the success rate of its last `window` outcomes is below the previous version's rate by more than `margin`.
 * Nothing is decided before the served version has a full window and the reference has at least one outcome.
 */
export function checkRollback(input: {
  served: readonly boolean[];
  reference: readonly boolean[];
  window: number;
  margin: number;
}): RollbackCheck {
  const recent = input.served.slice(-input.window);
  const servedRate = recent.length < input.window ? null : rate(recent);
  const referenceRate = input.reference.length === 0 ? null : rate(input.reference);
  const drop = servedRate === null || referenceRate === null ? null : referenceRate - servedRate;
  return {
    rollback: drop !== null && drop > input.margin + 1e-12,
    servedRate,
    referenceRate,
    drop,
    window: input.window,
  };
}
