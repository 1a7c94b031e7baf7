import { safeParseJson } from "@tfgrpo/protocol";
import type { Refusals } from "./config/models-config-schema.js";
import type { Fetch } from "./retrying-fetch.js";

export interface ProviderFetchOptions {
  fetch: Fetch;
  /** Roles and request fields this model refuses. */
  refuses: Refusals;
}

type Json = Record<string, unknown>;

/**
 * The one place where providers' documented departures from OpenAI's wire format are brought back to it, below the
 * retries and below both SDKs, so every role and every path (JSON or streamed) gets the same treatment:
 *
 * - requests: roles and fields the model refuses are rewritten or dropped (`refuses` in the models config); an
 *   assistant message's reasoning goes back under the field name the provider itself uses (`reasoning_content`,
 *   DeepSeek; `reasoning`, OpenRouter).
 * - responses: `reasoning` is read as `reasoning_content` (the name LangChain keeps); usage sent somewhere else
 *   (`x_groq.usage`, inside a choice) is lifted to `usage`; a 200 whose body is an error (OpenRouter, vLLM) becomes
 *   the HTTP error it is, so it is retried and reported instead of read as an empty answer.
 * - streams: deltas without `role` get `assistant` (LangChain otherwise builds generic chunks and loses the tool
 *   calls), tool-call indices are renumbered from 0 in order of appearance, and an error event in the stream, in any
 *   of the shapes providers send, becomes the `{"error": ...}` event the openai SDK throws on.
 */
export function createProviderFetch(options: ProviderFetchOptions): Fetch {
  // Learned from the provider's answers: the field it sends reasoning in is the one it expects back.
  let reasoningField: "reasoning_content" | "reasoning" = "reasoning_content";

  const rewriteRequest = (body: string): string => {
    // Nothing refused and reasoning sent back under its usual name: no request can change, so none is parsed (a
    // conversation's request carries the whole conversation, parsed again at every turn).
    if (
      options.refuses.params.length === 0 &&
      options.refuses.roles.length === 0 &&
      reasoningField === "reasoning_content"
    )
      return body;
    const parsed = safeParseJson<Json>(body);
    if (!parsed.success || !isObject(parsed.value)) return body;
    const request = parsed.value;
    let changed = false;
    for (const field of options.refuses.params) {
      if (field in request) {
        delete request[field];
        changed = true;
      }
    }
    if (Array.isArray(request.messages)) {
      for (const message of request.messages) {
        if (!isObject(message)) continue;
        if (message.role === "developer" && options.refuses.roles.includes("developer")) {
          message.role = options.refuses.roles.includes("system") ? "user" : "system";
          changed = true;
        } else if (message.role === "system" && options.refuses.roles.includes("system")) {
          message.role = "user";
          changed = true;
        }
        if (
          message.role === "assistant" &&
          reasoningField !== "reasoning_content" &&
          "reasoning_content" in message
        ) {
          message[reasoningField] = message.reasoning_content;
          delete message.reasoning_content;
          changed = true;
        }
      }
    }
    return changed ? JSON.stringify(request) : body;
  };

  const noteReasoning = (message: unknown) => {
    if (!isObject(message)) return false;
    if (typeof message.reasoning === "string" && message.reasoning_content === undefined) {
      reasoningField = "reasoning";
      message.reasoning_content = message.reasoning;
      delete message.reasoning;
      return true;
    }
    return false;
  };

  const normalizeCompletion = (value: Json): boolean => {
    let changed = false;
    const choices = Array.isArray(value.choices) ? value.choices : [];
    for (const choice of choices) {
      if (!isObject(choice)) continue;
      if (noteReasoning(choice.message)) changed = true;
      if (noteReasoning(choice.delta)) changed = true;
      if (isObject(choice.delta) && choice.delta.role === undefined) {
        choice.delta.role = "assistant";
        changed = true;
      }
      if (value.usage === undefined && isObject(choice.usage)) {
        value.usage = choice.usage;
        changed = true;
      }
    }
    const groq = value.x_groq;
    if ((value.usage === undefined || value.usage === null) && isObject(groq) && isObject(groq.usage)) {
      value.usage = groq.usage;
      changed = true;
    }
    return changed;
  };

  return async (input, init = {}) => {
    const body = typeof init.body === "string" ? rewriteRequest(init.body) : init.body;
    const response = await options.fetch(input, body === init.body ? init : { ...init, body });
    if (!response.ok) return response;
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType.includes("text/event-stream") && response.body) {
      return new Response(response.body.pipeThrough(normalizeStream(normalizeCompletion)), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    if (!contentType.includes("json")) return response;
    const text = await response.text();
    const parsed = safeParseJson<Json>(text);
    if (!parsed.success || !isObject(parsed.value)) return copy(response, text);
    const error = inBandError(parsed.value);
    if (error) {
      // An error sent with status 200: answered as the status it names (or 502, a bad upstream answer).
      const status =
        typeof error.code === "number" && error.code >= 400 && error.code < 600 ? error.code : 502;
      return new Response(JSON.stringify({ error }), {
        status,
        statusText: "error in a 200 response",
        headers: { "content-type": "application/json" },
      });
    }
    return normalizeCompletion(parsed.value)
      ? copy(response, JSON.stringify(parsed.value))
      : copy(response, text);
  };
}

/** The error a 200 body or stream event carries, in the shapes providers send; undefined for a normal answer. */
export function inBandError(value: Json): Json | undefined {
  if (isObject(value.error)) {
    return { ...value.error, message: String(value.error.message ?? "the provider reported an error") };
  }
  if (typeof value.error === "string") return { message: value.error };
  // vLLM: {"object": "error", "message": ..., "type": ..., "code": ...}
  if (value.object === "error") {
    return {
      message: String(value.message ?? "the provider reported an error"),
      type: value.type,
      code: value.code,
    };
  }
  const choices = Array.isArray(value.choices) ? value.choices : [];
  const failed = choices.find((choice) => isObject(choice) && choice.finish_reason === "error");
  if (isObject(failed)) {
    const native = isObject(failed.error) ? failed.error : undefined;
    return { message: String(native?.message ?? 'the generation ended with finish_reason "error"') };
  }
  return undefined;
}

function normalizeStream(normalize: (value: Json) => boolean): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  // Per choice: the provider's tool-call index -> ours, from 0 in order of appearance.
  const indices = new Map<number, Map<string, number>>();
  let failed = false;

  const renumber = (value: Json) => {
    const choices = Array.isArray(value.choices) ? value.choices : [];
    for (const choice of choices) {
      if (!isObject(choice) || !isObject(choice.delta) || !Array.isArray(choice.delta.tool_calls)) continue;
      const choiceIndex = typeof choice.index === "number" ? choice.index : 0;
      const seen = indices.get(choiceIndex) ?? new Map<string, number>();
      indices.set(choiceIndex, seen);
      let last = seen.size - 1;
      for (const call of choice.delta.tool_calls) {
        if (!isObject(call)) continue;
        // Without an index a call is one whole call when it brings an id, else the rest of the previous one.
        const key =
          typeof call.index === "number"
            ? `i${call.index}`
            : typeof call.id === "string" && call.id !== "" && !seen.has(`id${call.id}`)
              ? `id${call.id}`
              : undefined;
        let index = key === undefined ? Math.max(0, last) : seen.get(key);
        if (index === undefined) {
          index = seen.size;
          seen.set(key as string, index);
        }
        call.index = index;
        last = index;
      }
    }
  };

  const rewriteLine = (line: string): string => {
    if (failed || !line.startsWith("data:")) return line;
    const data = line.slice(5).trim();
    if (data === "" || data === "[DONE]") return line;
    const parsed = safeParseJson<Json>(data);
    if (!parsed.success || !isObject(parsed.value)) return line;
    const error = inBandError(parsed.value);
    if (error) {
      failed = true;
      return `data: ${JSON.stringify({ error })}`;
    }
    normalize(parsed.value);
    renumber(parsed.value);
    return `data: ${JSON.stringify(parsed.value)}`;
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      if (lines.length > 0) controller.enqueue(encoder.encode(`${lines.map(rewriteLine).join("\n")}\n`));
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending !== "") controller.enqueue(encoder.encode(rewriteLine(pending)));
    },
  });
}

function copy(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
