import { addUsage, emptyUsageTotals, type Role, type Usage, type UsageTotals } from "@tfgrpo/protocol";

/** Every model call's usage, with running totals overall and per role. */
export interface UsageLedger {
  record(usage: Usage): void;
  /** Every record, oldest first. */
  readonly records: readonly Usage[];
  readonly total: UsageTotals;
  byRole(role: Role): UsageTotals;
  perRole(): Partial<Record<Role, UsageTotals>>;
}

export function createUsageLedger(options: { onRecord?: (usage: Usage) => void } = {}): UsageLedger {
  const records: Usage[] = [];
  let total = emptyUsageTotals();
  const roles = new Map<Role, UsageTotals>();
  return {
    record(usage) {
      records.push(usage);
      total = addUsage(total, usage);
      roles.set(usage.role, addUsage(roles.get(usage.role) ?? emptyUsageTotals(), usage));
      options.onRecord?.(usage);
    },
    get records() {
      return records;
    },
    get total() {
      return total;
    },
    byRole(role) {
      return roles.get(role) ?? emptyUsageTotals();
    },
    perRole() {
      return Object.fromEntries(roles);
    },
  };
}
