import type { IncomingMessage, ServerResponse } from "node:http";
import { chatRequestSchema } from "../chat-request.js";
import { completionBody } from "./completion-body.js";
import { readJsonBody } from "./read-body.js";
import { sendJson } from "./send-json.js";
import type { SimServerContext } from "./server-context.js";
import { streamCompletion } from "./stream-completion.js";

/** POST /v1/chat/completions: the simulated model's answer, whole or streamed, with the request's fault applied. */
export async function handleChatCompletions(
  context: SimServerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const { raw, value: chat } = await readJsonBody(request, chatRequestSchema, "chat completion request");
  const key = context.requestKey(raw);
  const admission = await context.faults.admit(key, request, response);
  if (admission.answered) return;
  const completion = context.model.complete(chat);
  context.count(completion.kind);
  const body = completionBody(chat, completion, admission.fault, context.completionKey(key), context);
  if (chat.stream) streamCompletion(response, body, chat.stream_options?.include_usage === true);
  else sendJson(response, 200, body);
}
