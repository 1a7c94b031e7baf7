import { type Role, TfgrpoError } from "@tfgrpo/protocol";

/**
 * A USD limit for a run. Once spent reaches the limit, new calls are refused with `budget_exceeded` while calls
 * already in flight finish and are recorded: what was paid for is kept, and the run stops at a clean boundary.
 */
export interface Budget {
  /** Undefined when there is no limit. */
  readonly limitUsd: number | undefined;
  readonly spentUsd: number;
  /** Infinity when there is no limit; may go negative by what in-flight calls cost after the limit was reached. */
  readonly remainingUsd: number;
  readonly exceeded: boolean;
  /** Throws `budget_exceeded` when the limit is reached; every call checks this before it is sent. */
  assertAvailable(role: Role): void;
  /** Called once, when the limit is first reached. Returns an unsubscribe function. */
  onExceeded(listener: (budget: Budget) => void): () => void;
}

export interface BudgetController extends Budget {
  /** Adds the cost of a finished call. */
  charge(costUsd: number): void;
}

export function createBudget(limitUsd?: number): BudgetController {
  if (limitUsd !== undefined && !(limitUsd >= 0)) {
    throw new TfgrpoError("invalid_input", `budget.usd must be a number >= 0, got ${limitUsd}`, {
      details: { field: "budget.usd" },
    });
  }
  let spentUsd = 0;
  let notified = false;
  const listeners = new Set<(budget: Budget) => void>();
  const budget: BudgetController = {
    limitUsd,
    get spentUsd() {
      return spentUsd;
    },
    get remainingUsd() {
      return limitUsd === undefined ? Number.POSITIVE_INFINITY : limitUsd - spentUsd;
    },
    get exceeded() {
      return limitUsd !== undefined && spentUsd >= limitUsd;
    },
    assertAvailable(role) {
      if (!budget.exceeded) return;
      throw new TfgrpoError(
        "budget_exceeded",
        `budget of $${limitUsd} reached ($${spentUsd.toFixed(6)} spent): no new ${role} call is sent`,
        { details: { role, limitUsd, spentUsd } },
      );
    },
    onExceeded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    charge(costUsd) {
      spentUsd += costUsd;
      if (budget.exceeded && !notified) {
        notified = true;
        for (const listener of listeners) listener(budget);
      }
    },
  };
  return budget;
}
