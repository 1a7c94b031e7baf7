import { type ChatRequest, messageText } from "../chat-request.js";
import type { Fault } from "../faults.js";
import { hexFrom } from "../hash.js";
import { countTokens, type PromptCache } from "../prompt-cache.js";
import type { SimCompletion } from "../sim-model.js";
import { corruptCompletion } from "./corrupt-completion.js";
import type { SimServerStats } from "./server-stats.js";

/** The whole prompt as one string, stable content first (tools, then messages), as providers cache it. */
function promptText(request: ChatRequest): string {
  const parts: string[] = [];
  if (request.tools && request.tools.length > 0) parts.push(JSON.stringify(request.tools));
  if (request.response_format) parts.push(JSON.stringify(request.response_format));
  for (const message of request.messages) {
    parts.push(`<|${message.role}|>${messageText(message)}`);
    if (message.tool_calls) parts.push(JSON.stringify(message.tool_calls));
  }
  return parts.join("\n");
}

export type ChatCompletionBody = ReturnType<typeof completionBody>;

/**
 * The OpenAI chat completion of a simulated answer, with the fault applied, `max_tokens` enforced and usage counted
 * (cached tokens from the prompt cache of the request's session); adds the usage to the server's stats.
 */
export function completionBody(
  request: ChatRequest,
  completion: SimCompletion,
  fault: Fault | null,
  key: string,
  context: { seed: number; now: () => number; cache: PromptCache; stats: SimServerStats },
) {
  const { seed, now, cache, stats } = context;
  let { content, toolCalls, finishReason } = corruptCompletion(completion, fault);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? null;
  if (maxTokens !== null && content !== null && countTokens(content) > maxTokens) {
    content = content.slice(0, maxTokens * 4);
    toolCalls = [];
    finishReason = "length";
  }
  const prompt = promptText(request);
  const promptTokens = countTokens(prompt);
  const session = request.prompt_cache_key ?? request.user ?? "shared";
  const cachedTokens = Math.min(promptTokens, Math.floor(cache.lookupAndStore(session, prompt) / 4));
  const completionTokens =
    countTokens(content ?? "") +
    toolCalls.reduce((sum, call) => sum + countTokens(call.name + call.arguments) + 3, 0);
  stats.promptTokens += promptTokens;
  stats.cachedTokens += cachedTokens;
  stats.completionTokens += completionTokens;
  return {
    id: `simcmpl-${hexFrom(24, seed, key)}`,
    object: "chat.completion" as const,
    created: Math.floor(now() / 1000),
    model: request.model,
    system_fingerprint: "tfgrpo-sim",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant" as const,
          content,
          refusal: null,
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((call) => ({
                  id: call.id,
                  type: "function" as const,
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cachedTokens, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  };
}
