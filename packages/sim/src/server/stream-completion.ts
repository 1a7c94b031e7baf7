import type { ServerResponse } from "node:http";
import { simulatedHeader } from "../simulated-label.js";
import type { ChatCompletionBody } from "./completion-body.js";

/** A finished completion sent as server-sent events, the way OpenAI streams it: role, content, tool calls, finish. */
export function streamCompletion(
  response: ServerResponse,
  body: ChatCompletionBody,
  includeUsage: boolean,
): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    [simulatedHeader]: "1",
  });
  const base = {
    id: body.id,
    object: "chat.completion.chunk",
    created: body.created,
    model: body.model,
    system_fingerprint: body.system_fingerprint,
  };
  const send = (chunk: unknown) => response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  const choice = body.choices[0]!;
  send({
    ...base,
    choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }],
  });
  const content = choice.message.content ?? "";
  for (let i = 0; i < content.length; i += 48) {
    send({
      ...base,
      choices: [
        { index: 0, delta: { content: content.slice(i, i + 48) }, logprobs: null, finish_reason: null },
      ],
    });
  }
  (choice.message.tool_calls ?? []).forEach((call, index) => {
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index,
                id: call.id,
                type: "function",
                function: { name: call.function.name, arguments: "" },
              },
            ],
          },
          logprobs: null,
          finish_reason: null,
        },
      ],
    });
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] },
          logprobs: null,
          finish_reason: null,
        },
      ],
    });
  });
  send({
    ...base,
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: choice.finish_reason }],
  });
  if (includeUsage) send({ ...base, choices: [], usage: body.usage });
  response.end("data: [DONE]\n\n");
}
