import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Token numbers a scripted answer reports (OpenAI's names: prompt tokens include the cached ones). */
export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

export interface ScriptedToolCall {
  name: string;
  /** An object is sent JSON-encoded; a string is sent as is (to script malformed arguments). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

/** What the server does with one request. */
export type ScriptedReply =
  /** A chat completion (streamed as SSE when the request asks for a stream). */
  | {
      kind: "chat";
      content?: string | null;
      toolCalls?: ScriptedToolCall[];
      finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
      /** Omit for default numbers; `null` sends no usage at all (as some servers do). */
      usage?: ScriptedUsage | null;
      /** A usage object sent exactly as given (provider-specific fields), instead of `usage`. */
      rawUsage?: Record<string, unknown>;
      /** Where the usage goes: top level (default), `x_groq.usage` (Groq), or inside the choice. */
      usageAt?: "top" | "x_groq" | "choice";
      /** Reasoning returned beside the content, in `reasoningField` (default `reasoning_content`). */
      reasoning?: string;
      reasoningField?: "reasoning_content" | "reasoning";
      /** Streams only: send deltas without `role`. */
      omitRole?: boolean;
      /** Streams only: the first tool call's index (providers that do not start at 0). */
      toolCallIndexBase?: number;
      /** Streams only: after the content, send this event (an in-band error) and end the stream. */
      streamError?: Record<string, unknown>;
    }
  /** An embeddings response; vectors default to a deterministic hash of each input. */
  | { kind: "embedding"; vectors?: number[][]; usage?: { promptTokens: number } | null }
  /** An error status with an OpenAI-style error body, e.g. 429 with Retry-After, 500, 400. */
  | {
      kind: "error";
      status: number;
      message?: string;
      code?: string;
      type?: string;
      retryAfter?: number | string;
      retryAfterMs?: number;
      headers?: Record<string, string>;
    }
  /** Any body with any status and content type, e.g. a garbled JSON body. */
  | { kind: "raw"; status?: number; body: string; contentType?: string; headers?: Record<string, string> }
  /** Never answers: the client's deadline has to save it. */
  | { kind: "hang" }
  /** Destroys the socket before any response: a dropped connection. */
  | { kind: "drop" }
  /** Sends the headers and half of a chat completion, then destroys the socket. */
  | { kind: "drop-mid-body"; content?: string }
  /** Starts an SSE stream, sends one chunk, then goes silent (a stalled stream). */
  | { kind: "stall-stream" }
  /** Waits, then does `then`. */
  | { kind: "delay"; ms: number; reply: ScriptedReply };

export interface RecordedRequest {
  /** 0-based, in arrival order. */
  index: number;
  method: string;
  /** Path without the /v1 prefix: `/chat/completions`, `/embeddings`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: arbitrary request JSON that tests read field by field
  body: any;
  /** What the server did. */
  reply?: ScriptedReply;
}

export type ScriptedHandler = (request: RecordedRequest) => ScriptedReply | undefined;

export interface ScriptedOpenAIServer extends AsyncDisposable {
  /** Base URL for clients, ending in /v1. */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Queues replies for the next requests, in order (any path). */
  reply(...replies: ScriptedReply[]): void;
  /** Decides replies when the queue is empty (before the defaults). */
  handle(handler: ScriptedHandler | undefined): void;
  /** Replies still queued. */
  readonly pending: number;
  close(): Promise<void>;
}

/**
 * A small OpenAI-compatible HTTP server whose answers are scripted per request: JSON bodies, malformed JSON,
 * truncated output, 429 with Retry-After, 500, a hang past the client's deadline, a dropped connection, tool calls,
 * usage numbers with cached tokens. Listens on 127.0.0.1 and a free port. Use with
 * `await using server = await startScriptedOpenAIServer()`.
 * Without a script it answers chat with "ok" and embeddings with deterministic vectors.
 */
export async function startScriptedOpenAIServer(
  options: { replies?: ScriptedReply[]; handler?: ScriptedHandler; defaultUsage?: ScriptedUsage } = {},
): Promise<ScriptedOpenAIServer> {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  let handler = options.handler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const defaultUsage = options.defaultUsage ?? { promptTokens: 10, completionTokens: 5, cachedTokens: 0 };

  const server = createServer((request, response) => {
    void serve(request, response).catch(() => response.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = {
      index: requests.length,
      method: request.method ?? "GET",
      path: (request.url ?? "/").replace(/^\/v1/, "").split("?")[0] ?? "/",
      headers: request.headers,
      body,
    };
    requests.push(recorded);
    const reply = queue.shift() ?? handler?.(recorded) ?? defaultReply(recorded);
    recorded.reply = reply;
    await perform(reply, recorded, request, response);
  }

  async function perform(
    reply: ScriptedReply,
    recorded: RecordedRequest,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    switch (reply.kind) {
      case "delay":
        await new Promise((resolve) => setTimeout(resolve, reply.ms));
        if (request.socket.destroyed) return;
        return perform(reply.reply, recorded, request, response);
      case "hang":
        return;
      case "stall-stream":
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        response.write(
          `data: ${JSON.stringify({ id: "stalled", object: "chat.completion.chunk", created: 1_700_000_000, model: recorded.body?.model ?? "scripted", choices: [{ index: 0, delta: { role: "assistant", content: "par" }, finish_reason: null }] })}\n\n`,
        );
        return;
      case "drop":
        request.socket.destroy();
        return;
      case "drop-mid-body": {
        const full = JSON.stringify(
          chatBody(recorded, { kind: "chat", content: reply.content ?? "partial" }, defaultUsage),
        );
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": String(full.length),
        });
        response.write(full.slice(0, Math.floor(full.length / 2)));
        // Let the half body reach the client before the connection goes.
        await new Promise((resolve) => setTimeout(resolve, 5));
        request.socket.destroy();
        return;
      }
      case "error": {
        const headers: Record<string, string> = { "content-type": "application/json", ...reply.headers };
        if (reply.retryAfter !== undefined) headers["retry-after"] = String(reply.retryAfter);
        if (reply.retryAfterMs !== undefined) headers["retry-after-ms"] = String(reply.retryAfterMs);
        const error = {
          message: reply.message ?? `scripted error ${reply.status}`,
          type: reply.type ?? (reply.status === 429 ? "rate_limit_error" : "server_error"),
          code: reply.code ?? null,
        };
        response.writeHead(reply.status, headers);
        response.end(JSON.stringify({ error }));
        return;
      }
      case "raw":
        response.writeHead(reply.status ?? 200, {
          "content-type": reply.contentType ?? "application/json",
          ...reply.headers,
        });
        response.end(reply.body);
        return;
      case "embedding": {
        const inputs = embeddingInputs(recorded.body);
        const vectors = reply.vectors ?? inputs.map((input) => hashVector(input));
        const usage =
          reply.usage === null
            ? undefined
            : {
                prompt_tokens: reply.usage?.promptTokens ?? inputs.length,
                total_tokens: reply.usage?.promptTokens ?? inputs.length,
              };
        sendJson(response, {
          object: "list",
          model: recorded.body?.model ?? "scripted-embedder",
          data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
          ...(usage ? { usage } : {}),
        });
        return;
      }
      case "chat":
        if (recorded.body?.stream === true) {
          streamChat(response, recorded, reply, defaultUsage);
          return;
        }
        sendJson(response, chatBody(recorded, reply, defaultUsage));
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    reply: (...replies) => {
      queue.push(...replies);
    },
    handle: (next) => {
      handler = next;
    },
    get pending() {
      return queue.length;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function defaultReply(request: RecordedRequest): ScriptedReply {
  if (request.path.startsWith("/embeddings")) return { kind: "embedding" };
  if (request.path.startsWith("/chat/completions")) return { kind: "chat", content: "ok" };
  return {
    kind: "error",
    status: 404,
    message: `no route ${request.method} ${request.path}`,
    type: "invalid_request_error",
  };
}

function chatBody(
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: "chat" }>,
  fallback: ScriptedUsage,
) {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${request.index}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const usage = reply.rawUsage ?? (reply.usage === null ? undefined : usageBody(reply.usage ?? fallback));
  const at = reply.usageAt ?? "top";
  const reasoning =
    reply.reasoning === undefined ? {} : { [reply.reasoningField ?? "reasoning_content"]: reply.reasoning };
  return {
    id: `chatcmpl-scripted-${request.index}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: request.body?.model ?? "scripted",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.content === undefined ? (toolCalls.length > 0 ? null : "ok") : reply.content,
          ...reasoning,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
        ...(usage && at === "choice" ? { usage } : {}),
      },
    ],
    ...(usage && at === "top" ? { usage } : {}),
    ...(usage && at === "x_groq" ? { x_groq: { id: "req_scripted", usage } } : {}),
  };
}

function streamChat(
  response: ServerResponse,
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: "chat" }>,
  fallback: ScriptedUsage,
): void {
  const body = chatBody(request, reply, fallback);
  const choice = body.choices[0];
  const base = { id: body.id, object: "chat.completion.chunk", created: body.created, model: body.model };
  const send = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
  const role = reply.omitRole ? {} : { role: "assistant" };
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  send({ ...base, choices: [{ index: 0, delta: { ...role, content: "" }, finish_reason: null }] });
  const message = choice?.message as Record<string, unknown> | undefined;
  const reasoningField = reply.reasoningField ?? "reasoning_content";
  const reasoning = typeof message?.[reasoningField] === "string" ? (message[reasoningField] as string) : "";
  for (let start = 0; start < reasoning.length; start += 8) {
    send({
      ...base,
      choices: [
        { index: 0, delta: { [reasoningField]: reasoning.slice(start, start + 8) }, finish_reason: null },
      ],
    });
  }
  const content = choice?.message.content ?? "";
  for (let start = 0; start < content.length; start += 8) {
    send({
      ...base,
      choices: [{ index: 0, delta: { content: content.slice(start, start + 8) }, finish_reason: null }],
    });
  }
  if (reply.streamError) {
    send(reply.streamError);
    response.end("data: [DONE]\n\n");
    return;
  }
  const toolCalls = (choice?.message as { tool_calls?: unknown[] } | undefined)?.tool_calls ?? [];
  const indexBase = reply.toolCallIndexBase ?? 0;
  toolCalls.forEach((call, index) => {
    const { function: fn, ...head } = call as { function: { name: string; arguments: string } };
    const half = Math.floor(fn.arguments.length / 2);
    // Sent in two pieces, as providers do: the call's head with the first half, then the rest by index alone.
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: index + indexBase,
                ...head,
                function: { name: fn.name, arguments: fn.arguments.slice(0, half) },
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    send({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [{ index: index + indexBase, function: { arguments: fn.arguments.slice(half) } }],
          },
          finish_reason: null,
        },
      ],
    });
  });
  const choiceUsage = (choice as { usage?: unknown } | undefined)?.usage;
  send({
    ...base,
    choices: [
      {
        index: 0,
        delta: {},
        finish_reason: choice?.finish_reason ?? "stop",
        ...(choiceUsage ? { usage: choiceUsage } : {}),
      },
    ],
  });
  const streamUsage = body.usage ?? body.x_groq?.usage;
  if (request.body?.stream_options?.include_usage && streamUsage) {
    send({
      ...base,
      choices: [],
      ...(body.x_groq ? { x_groq: { usage: streamUsage } } : { usage: streamUsage }),
    });
  }
  response.end("data: [DONE]\n\n");
}

function usageBody(usage: ScriptedUsage) {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
  };
}

function sendJson(response: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
  });
  response.end(text);
}

function embeddingInputs(body: { input?: unknown } | undefined): string[] {
  const input = body?.input;
  if (Array.isArray(input)) return input.map(String);
  return input === undefined ? [] : [String(input)];
}

/** A deterministic unit vector per text, so similarity tests are repeatable. */
export function hashVector(text: string, dimensions = 8): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let index = 0; index < text.length; index++) {
    const slot = index % dimensions;
    vector[slot] = ((vector[slot] ?? 0) * 31 + text.charCodeAt(index)) % 1000;
  }
  const norm = Math.sqrt(vector.reduce((total, value) => total + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
