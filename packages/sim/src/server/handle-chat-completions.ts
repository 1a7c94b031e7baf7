import type { IncomingMessage, ServerResponse } from "node:http";
import { chatRequestSchema } from "../chat-request.js";
import { completionBody } from "./completion-body.js";
import { readJsonBody } from "./read-body.js";
import { sendJson } from "./send-json.js";
import type { SimServerContext } from "./server-context.js";
import { streamCompletion } from "./stream-completion.js";

/**
 * POST /v1/chat/completions: the simulated model's answer, whole or streamed, with the request's fault applied.
 * `arrivedMs` (performance.now()) is when the request reached the server: the base latency counts from there.
 */
export async function handleChatCompletions(
  context: SimServerContext,
  request: IncomingMessage,
  response: ServerResponse,
  arrivedMs = performance.now(),
): Promise<void> {
  const { raw, value: chat } = await readJsonBody(request, chatRequestSchema, "chat completion request");
  const key = context.requestKey(raw);
  // Latency is counted from arrival, as with a provider that works on many calls at once. The sim's own work runs on
  // its one thread, so it is left until the requests that arrived together have all been read (setImmediate runs
  // after the pending reads): otherwise each answer would delay the next request's arrival, and a burst of calls
  // would come back spread over the sim's work instead of at arrival + latency. The answer is a pure function of the
  // request, so working it out before a fault discards it changes nothing.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const completion = context.model.complete(chat);
  const admission = await context.faults.admit(key, request, response, performance.now() - arrivedMs);
  if (admission.answered) return;
  context.count(completion.kind);
  const body = completionBody(chat, completion, admission.fault, context.completionKey(key), context);
  if (chat.stream) streamCompletion(response, body, chat.stream_options?.include_usage === true);
  else sendJson(response, 200, body);
}
