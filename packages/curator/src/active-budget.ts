import { estimateTokens } from "@tfgrpo/protocol";

export interface ActiveBudget {
  maxEntries: number;
  maxTokens: number;
}

export interface BudgetItem {
  id: string;
  text: string;
}

/**
 * Fills the active set in the given (best-first) order until the entry count or the token budget is reached. An
 * entry that does not fit in the remaining tokens is skipped, not the end of the fill, so a long entry cannot crowd
 * out shorter, slightly less useful ones. The experience line format `[G3]. text` is what is counted.
 */
export function fitActiveBudget<T extends BudgetItem>(
  ranked: readonly T[],
  budget: ActiveBudget,
  countTokens: (text: string) => number = estimateTokens,
): { fits: T[]; overflow: T[]; tokens: number } {
  const fits: T[] = [];
  const overflow: T[] = [];
  let tokens = 0;
  for (const item of ranked) {
    const cost = countTokens(`[${item.id}]. ${item.text}\n`);
    if (fits.length < budget.maxEntries && tokens + cost <= budget.maxTokens) {
      fits.push(item);
      tokens += cost;
    } else {
      overflow.push(item);
    }
  }
  return { fits, overflow, tokens };
}
