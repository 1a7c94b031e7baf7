import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { formatZodIssues, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import type { PolicyBehaviour, SimNoiseOptions } from "./behaviour.js";
import { type ChatRequest, chatRequestSchema, messageText } from "./chat-request.js";
import type { CorpusDocument } from "./corpus.js";
import { formatSearchResults, searchCorpus } from "./corpus-search.js";
import { defaultEmbeddingDimensions, embeddingToBase64, embedText } from "./embeddings.js";
import {
  createFaultPlan,
  drawLatency,
  type Fault,
  type FaultConfig,
  type LatencyDistribution,
  parseFaultSpec,
} from "./faults.js";
import { hashString, hexFrom } from "./hash.js";
import { countTokens, createPromptCache } from "./prompt-cache.js";
import { createSimModel, type SimCallKind, type SimCompletion } from "./sim-model.js";
import type { SimToolCall } from "./sim-policy.js";
import { SIMULATED_LABEL, simModelNames, simulatedHeader } from "./simulated-label.js";
import { breakJson, garbleJson } from "./structured-output.js";
import { corpusJsonl, servedCorpusUrl } from "./suites/write-suite-jsonl.js";
import type { SimWorld } from "./world.js";

export interface SimServerOptions {
  /** Seed of every decision of the simulated model (and of the world, unless `world` is given). */
  seed: number;
  /** World (or world seed) whose tasks and web pages the server knows. Defaults to `seed`. */
  world?: SimWorld | number;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Injected faults, as an object or the CLI string form (see parseFaultSpec). */
  faults?: FaultConfig | string;
  /** Latency added to every model call. */
  latency?: LatencyDistribution;
  noise?: SimNoiseOptions;
  behaviour?: Partial<PolicyBehaviour>;
  /** Clock for the `created` field (the only time-dependent output). */
  now?: () => number;
}

export interface SimServerStats {
  requests: number;
  byKind: Partial<Record<SimCallKind | "embeddings" | "models" | "corpus", number>>;
  faults: Partial<Record<Fault["kind"], number>>;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}

export interface SimServer extends AsyncDisposable {
  /** Base URL for OpenAI clients, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  port: number;
  /** Base URL of the simulated web (search, pages, JSONL export). */
  corpusUrl: string;
  seed: number;
  world: SimWorld;
  simulated: true;
  label: string;
  stats(): SimServerStats;
  close(): Promise<void>;
}

const embeddingRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()), z.array(z.number()), z.array(z.array(z.number()))]),
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().min(1).max(4096).optional(),
});

const maxBodyBytes = 32 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new HttpError(413, `request body over ${maxBodyBytes} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    [simulatedHeader]: "1",
    ...headers,
  });
  response.end(text);
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Record<string, string> = {},
) {
  sendJson(
    response,
    status,
    { error: { message: `[simulated] ${message}`, type, param: null, code: null } },
    headers,
  );
}

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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The OpenAI-compatible simulated model server and the simulated web, on one loopback port.
 * Routes: POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models[/id]; GET /corpus/search?q=,
 * /corpus/documents.jsonl, /corpus/page?url=, /corpus/<host>/<path>. Every answer is labelled simulated.
 */
export async function createSimServer(options: SimServerOptions): Promise<SimServer> {
  const { seed } = options;
  const model = createSimModel({
    seed,
    ...(options.world === undefined ? {} : { world: options.world }),
    ...(options.noise ? { noise: options.noise } : {}),
    ...(options.behaviour ? { behaviour: options.behaviour } : {}),
  });
  const world = model.world;
  const faults = createFaultPlan(
    typeof options.faults === "string" ? parseFaultSpec(options.faults) : options.faults,
    seed,
  );
  const cache = createPromptCache();
  const now = options.now ?? Date.now;
  const hosts = new Set(world.corpus.documents.map((doc) => new URL(doc.url).host));
  const pendingTimers = new Set<NodeJS.Timeout>();
  const stats: SimServerStats = {
    requests: 0,
    byKind: {},
    faults: {},
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
  };
  const count = (key: keyof SimServerStats["byKind"]) => {
    stats.byKind[key] = (stats.byKind[key] ?? 0) + 1;
  };
  let closing = false;
  let origin = "";
  let corpusUrl = "";
  // Fault draws and ids key on the request body without this server's own address, so a run is the same whatever
  // port the server got (web tasks put served corpus URLs into prompts).
  const requestKey = (raw: string) => String(hashString(origin ? raw.replaceAll(origin, "") : raw));
  const completionCounts = new Map<string, number>();
  // Completion ids come from the request body and how often it was seen, never from arrival order.
  const completionKey = (key: string) => {
    const n = completionCounts.get(key) ?? 0;
    completionCounts.set(key, n + 1);
    if (completionCounts.size > 200_000) completionCounts.clear();
    return `${key}:${n}`;
  };

  async function applyLatency(key: string): Promise<void> {
    if (options.latency && options.latency.meanMs > 0)
      await sleep(drawLatency(options.latency, "base", seed, key));
  }

  /** Holds the request open: the client's timeout ends it (or maxMs, or the server closing). */
  function hang(request: IncomingMessage, response: ServerResponse, maxMs: number | null): void {
    if (maxMs !== null) {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        response.destroy();
      }, maxMs);
      pendingTimers.add(timer);
      request.on("close", () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
      });
    }
  }

  /** Faults that end the request before any answer; returns true when it handled the response. */
  async function preAnswerFault(
    fault: Fault | null,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<boolean> {
    if (!fault) return false;
    stats.faults[fault.kind] = (stats.faults[fault.kind] ?? 0) + 1;
    if (fault.kind === "latency") {
      await sleep(fault.delayMs);
      return false;
    }
    if (fault.kind === "rateLimit") {
      sendError(response, 429, "Rate limit reached (simulated fault).", "rate_limit_error", {
        "retry-after": String(Math.max(0, Math.ceil(fault.retryAfterMs / 1000))),
        "retry-after-ms": String(fault.retryAfterMs),
      });
      return true;
    }
    if (fault.kind === "serverError") {
      sendError(
        response,
        500,
        "The server had an error while processing your request (simulated fault).",
        "server_error",
      );
      return true;
    }
    if (fault.kind === "hang") {
      hang(request, response, fault.maxMs);
      return true;
    }
    return false;
  }

  function completionBody(request: ChatRequest, completion: SimCompletion, fault: Fault | null, key: string) {
    let content = completion.content;
    let toolCalls: SimToolCall[] = completion.toolCalls;
    let finishReason: "stop" | "tool_calls" | "length" = toolCalls.length > 0 ? "tool_calls" : "stop";
    if (fault?.kind === "malformedJson") {
      if (completion.structured && content !== null) content = breakJson(content);
      else if (toolCalls.length > 0)
        toolCalls = toolCalls.map((call, i) =>
          i === 0 ? { ...call, arguments: breakJson(call.arguments) } : call,
        );
    }
    if (fault?.kind === "garbledJson") {
      if (completion.structured && content !== null) content = garbleJson(content);
      else if (toolCalls.length > 0)
        toolCalls = toolCalls.map((call) => ({ ...call, arguments: garbleJson(call.arguments) }));
    }
    if (fault?.kind === "truncated") {
      if (toolCalls.length > 0) {
        toolCalls = toolCalls.map((call) => ({
          ...call,
          arguments: call.arguments.slice(0, Math.floor(call.arguments.length / 2)),
        }));
      } else if (content !== null) content = content.slice(0, Math.floor(content.length / 2));
      finishReason = "length";
    }
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

  function streamCompletion(
    response: ServerResponse,
    body: ReturnType<typeof completionBody>,
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

  async function handleChat(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const json = safeParseJson(raw);
    if (!json.success) throw new HttpError(400, `body is not JSON: ${json.error}`);
    const parsed = chatRequestSchema.safeParse(json.value);
    if (!parsed.success)
      throw new HttpError(400, `invalid chat completion request: ${formatZodIssues(parsed.error.issues)}`);
    const chat = parsed.data;
    const key = requestKey(raw);
    const fault = faults.choose(key);
    await applyLatency(key);
    if (await preAnswerFault(fault, request, response)) return;
    const completion = model.complete(chat);
    count(completion.kind);
    const body = completionBody(chat, completion, fault, completionKey(key));
    if (chat.stream) streamCompletion(response, body, chat.stream_options?.include_usage === true);
    else sendJson(response, 200, body);
  }

  async function handleEmbeddings(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const json = safeParseJson(raw);
    if (!json.success) throw new HttpError(400, `body is not JSON: ${json.error}`);
    const parsed = embeddingRequestSchema.safeParse(json.value);
    if (!parsed.success)
      throw new HttpError(400, `invalid embeddings request: ${formatZodIssues(parsed.error.issues)}`);
    count("embeddings");
    const key = requestKey(raw);
    const fault = faults.choose(key);
    await applyLatency(key);
    if (await preAnswerFault(fault, request, response)) return;
    const { input, dimensions = defaultEmbeddingDimensions, encoding_format: format = "float" } = parsed.data;
    const texts =
      typeof input === "string"
        ? [input]
        : input.length > 0 && typeof input[0] === "number"
          ? [(input as number[]).join(" ")]
          : (input as (string | number[])[]).map((item) =>
              typeof item === "string" ? item : item.join(" "),
            );
    const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0);
    sendJson(response, 200, {
      object: "list",
      model: parsed.data.model,
      data: texts.map((text, index) => {
        const vector = embedText(text, dimensions);
        return {
          object: "embedding",
          index,
          embedding: format === "base64" ? embeddingToBase64(vector) : vector,
        };
      }),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  function modelObject(id: string) {
    return {
      id,
      object: "model",
      created: 0,
      owned_by: "tfgrpo-sim",
      description: `${SIMULATED_LABEL}. Answers any request by reading its prompt; behaviour is picked from the request, not the name.`,
    };
  }

  function sendPage(response: ServerResponse, doc: CorpusDocument | undefined, what: string): void {
    if (!doc) {
      const html = `<!doctype html><html><head><title>404 Not Found</title></head><body><main><h1>Not Found</h1><p>No simulated page at ${what.replace(/[<>&"]/g, "")}.</p></main><footer>${SIMULATED_LABEL}</footer></body></html>`;
      response.writeHead(404, { "content-type": "text/html; charset=utf-8", [simulatedHeader]: "1" });
      response.end(html);
      return;
    }
    response.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      [simulatedHeader]: "1",
      ...(doc.published ? { "last-modified": new Date(`${doc.published}T00:00:00Z`).toUTCString() } : {}),
    });
    response.end(doc.content);
  }

  function handleCorpus(url: URL, response: ServerResponse): void {
    count("corpus");
    const rest = url.pathname.replace(/^\/corpus\/?/, "");
    if (rest === "" || rest === "index.json") {
      sendJson(response, 200, {
        simulated: true,
        label: SIMULATED_LABEL,
        seed: world.seed,
        documents: world.corpus.documents.length,
      });
      return;
    }
    if (rest === "search") {
      const query = url.searchParams.get("q") ?? url.searchParams.get("query") ?? "";
      const max = Number(url.searchParams.get("max_results") ?? url.searchParams.get("n") ?? 5);
      const found = searchCorpus(
        world.corpus,
        query,
        Number.isFinite(max) ? Math.min(50, Math.max(1, max)) : 5,
      );
      const results =
        url.searchParams.get("urls") === "served"
          ? found.map((result) => ({ ...result, url: servedCorpusUrl(corpusUrl, result.url) }))
          : found;
      if (url.searchParams.get("format") === "text") {
        response.writeHead(200, { "content-type": "text/plain; charset=utf-8", [simulatedHeader]: "1" });
        response.end(formatSearchResults(results));
      } else sendJson(response, 200, { simulated: true, query, results });
      return;
    }
    if (rest === "documents.jsonl") {
      // Served addresses by default (what this server answers at); ?urls=canonical for the pages' own URLs.
      const canonical = url.searchParams.get("urls") === "canonical";
      response.writeHead(200, { "content-type": "application/x-ndjson", [simulatedHeader]: "1" });
      response.end(corpusJsonl(world.corpus.documents, canonical ? {} : { baseUrl: corpusUrl }));
      return;
    }
    if (rest === "page") {
      const target = url.searchParams.get("url") ?? "";
      sendPage(response, world.corpus.byUrl.get(target), target);
      return;
    }
    // Path style: /corpus/<host>/<path> for http://<host>/<path>
    const slash = rest.indexOf("/");
    const host = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? "/" : rest.slice(slash);
    const target = `http://${host}${path}`;
    sendPage(
      response,
      world.corpus.byUrl.get(target) ?? world.corpus.byUrl.get(target.replace(/\/$/, "")),
      target,
    );
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    stats.requests++;
    const hostHeader = (request.headers.host ?? "").toLowerCase();
    const url = new URL(request.url ?? "/", "http://sim.local");
    // Proxy-style or Host-routed requests for a page of the simulated web.
    if (hosts.has(hostHeader) || (/^https?:\/\//.test(request.url ?? "") && hosts.has(url.host))) {
      const host = hosts.has(hostHeader) ? hostHeader : url.host;
      sendPage(
        response,
        world.corpus.byUrl.get(`http://${host}${url.pathname}`),
        `http://${host}${url.pathname}`,
      );
      return;
    }
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (request.method === "POST" && path === "/v1/chat/completions") return handleChat(request, response);
    if (request.method === "POST" && path === "/v1/embeddings") return handleEmbeddings(request, response);
    if (request.method === "GET" && path === "/v1/models") {
      count("models");
      sendJson(response, 200, { object: "list", data: simModelNames.map(modelObject) });
      return;
    }
    if (request.method === "GET" && path.startsWith("/v1/models/")) {
      count("models");
      sendJson(response, 200, modelObject(decodeURIComponent(path.slice("/v1/models/".length))));
      return;
    }
    if (request.method === "GET" && (path === "/corpus" || path.startsWith("/corpus/"))) {
      handleCorpus(url, response);
      return;
    }
    throw new HttpError(
      404,
      `no route ${request.method} ${url.pathname} on the sim server`,
      "not_found_error",
    );
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) return;
      if (error instanceof HttpError) sendError(response, error.status, error.message, error.type);
      else sendError(response, 500, `sim server bug: ${(error as Error).message}`, "server_error");
    });
  });
  // Idle keep-alive sockets stay open well past clients' own idle timeouts (undici: 4 s): a server that closes an
  // idle socket first races the client's next request on it, which then fails with ECONNRESET.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        new TfgrpoError(
          "invalid_config",
          `sim server: cannot listen on ${host}:${options.port ?? 0}: ${error.message}`,
          {
            cause: error,
            details: { host, port: options.port ?? 0 },
          },
        ),
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  corpusUrl = `${origin}/corpus`;

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    for (const timer of pendingTimers) clearTimeout(timer);
    pendingTimers.clear();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Hanging requests and keep-alive sockets would hold close() forever.
      server.closeAllConnections();
    });
  }

  return {
    url: `${origin}/v1`,
    port,
    corpusUrl,
    seed,
    world,
    simulated: true,
    label: SIMULATED_LABEL,
    stats: () => structuredClone(stats),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** URL on the sim server that serves a page of the simulated web (path style); served URLs pass unchanged. */
export function corpusPageUrl(corpusUrl: string, documentUrl: string): string {
  return documentUrl.startsWith(corpusUrl) ? documentUrl : servedCorpusUrl(corpusUrl, documentUrl);
}
