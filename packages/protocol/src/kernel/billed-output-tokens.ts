/** The token numbers a provider reports for one call, by OpenAI's names; any may be missing. */
export interface ReportedTokens {
  prompt?: number | null | undefined;
  completion?: number | null | undefined;
  reasoning?: number | null | undefined;
  total?: number | null | undefined;
}

/**
 * The output tokens a provider bills. OpenAI counts reasoning inside `completion_tokens`; some providers report it
 * only in `completion_tokens_details.reasoning_tokens`, or in a `total_tokens` larger than prompt + completion.
 * Counting `completion_tokens` alone would make cost and the USD budget several times too low. One rule for every
 * path that reads usage (the models' ledger and the actor's per-call accounting).
 */
export function billedOutputTokens(reported: ReportedTokens): number {
  const prompt = reported.prompt ?? 0;
  const completion = reported.completion ?? 0;
  const reasoning = reported.reasoning ?? 0;
  const total = reported.total ?? null;
  if (total !== null && total > prompt + completion) return total - prompt;
  // Reasoning larger than the completion cannot be part of it: it was billed beside it.
  if (reasoning > completion) return completion + reasoning;
  return completion;
}
