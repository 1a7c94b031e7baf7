import { z } from "zod";

export const roleSchema = z.enum(["actor", "critic", "curator", "judge", "embedder", "user"]);
export type Role = z.infer<typeof roleSchema>;

export const usageSchema = z.object({
  role: roleSchema,
  model: z.string(),
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;

/** Sum of several usage records (tokens, cost and latency add up). */
export const usageTotalsSchema = z.object({
  calls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

export function emptyUsageTotals(): UsageTotals {
  return { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 };
}

/**
 * Share of input tokens the provider served from its prompt cache (cached input / input, as the provider reports
 * them); null when there was no input. The library's stable prompt prefix is meant to keep it high.
 */
export function cacheHitRate(usage: { inputTokens: number; cachedInputTokens: number }): number | null {
  return usage.inputTokens === 0 ? null : usage.cachedInputTokens / usage.inputTokens;
}

export function addUsage(totals: UsageTotals, usage: Usage | UsageTotals): UsageTotals {
  return {
    calls: totals.calls + ("calls" in usage ? usage.calls : 1),
    inputTokens: totals.inputTokens + usage.inputTokens,
    cachedInputTokens: totals.cachedInputTokens + usage.cachedInputTokens,
    outputTokens: totals.outputTokens + usage.outputTokens,
    costUsd: totals.costUsd + usage.costUsd,
    latencyMs: totals.latencyMs + usage.latencyMs,
  };
}
