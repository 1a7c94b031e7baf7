/**
 * The one budget of what the actor shows and the curator keeps active (seed 002: about 1,500 tokens of lessons, at
 * about 40 tokens each some thirty live rules). The curator fills its active set within it and the actor's
 * experience block never exceeds it, so what is kept is what is shown.
 */
export interface LibraryBudget {
  maxEntries: number;
  maxTokens: number;
}

export const defaultLibraryBudget: Readonly<LibraryBudget> = { maxEntries: 30, maxTokens: 1500 };
