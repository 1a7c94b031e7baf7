import type { Prices } from "./config/models-config-schema.js";

export interface TokenCounts {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** USD for one call: cached input tokens are part of the input count and billed at their own price. */
export function computeCostUsd(tokens: TokenCounts, prices: Prices): number {
  const cached = Math.min(tokens.cachedInputTokens, tokens.inputTokens);
  const uncached = tokens.inputTokens - cached;
  // One division at the end keeps the result as exact as the prices allow.
  return (
    (uncached * prices.input + cached * prices.cachedInput + tokens.outputTokens * prices.output) / 1_000_000
  );
}
