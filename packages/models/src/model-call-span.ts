import { recordSpan, SpanKind, spanAttributes, type Usage } from "@tfgrpo/protocol";
import type { UsageInfo } from "./retrying-fetch.js";

/**
 * One span per answered model call, in the GenAI semantic conventions: model, provider, tokens in/out/cached, cost,
 * latency, finish reasons and retries. Recorded when the answer is in (a child of whatever span made the call: a
 * rollout, a critic request...), from the same usage record the ledger and the budget get, so a trace's costs add up
 * to the run's usage totals.
 */
export function recordModelCallSpan(usage: Usage, info: UsageInfo, baseUrl: string): void {
  const end = Date.now();
  recordSpan(`chat ${usage.model}`, {
    kind: SpanKind.CLIENT,
    start: end - usage.latencyMs,
    end,
    attributes: {
      [spanAttributes.genAiOperation]: "chat",
      [spanAttributes.genAiProvider]: providerName(baseUrl),
      [spanAttributes.genAiRequestModel]: usage.model,
      [spanAttributes.genAiInputTokens]: usage.inputTokens,
      [spanAttributes.genAiOutputTokens]: usage.outputTokens,
      [spanAttributes.genAiCachedInputTokens]: usage.cachedInputTokens,
      [spanAttributes.genAiFinishReasons]: info.finishReasons,
      [spanAttributes.role]: usage.role,
      [spanAttributes.costUsd]: usage.costUsd,
      [spanAttributes.latencyMs]: usage.latencyMs,
      [spanAttributes.retryCount]: Math.max(0, info.attempt - 1),
      "url.path": info.path,
    },
  });
}

/** The provider as its API host names it (`api.deepseek.com`); never the URL's credentials or query. */
function providerName(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return "unknown";
  }
}
