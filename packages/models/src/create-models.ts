import { AsyncLocalStorage } from "node:async_hooks";
import type { ChatOpenAI, ChatOpenAIFields } from "@langchain/openai";
import {
  addUsage,
  billedOutputTokens as billedOutput,
  emptyUsageTotals,
  linkAbortSignal,
  type Role,
  TfgrpoError,
  type Usage,
  type UsageTotals,
} from "@tfgrpo/protocol";
import OpenAI from "openai";
import { z } from "zod";
import { AccountedChatOpenAI } from "./accounted-chat-openai.js";
import { type Budget, createBudget } from "./budget.js";
import type { Cassette } from "./cassette/cassette.js";
import { computeCostUsd, type TokenCounts } from "./compute-cost.js";
import type { ModelEntry, ModelsConfig, StructuredOutputMode } from "./config/models-config-schema.js";
import { recordModelCallSpan } from "./model-call-span.js";
import type { ModelsLogger } from "./models-logger.js";
import { createProviderFetch } from "./provider-fetch.js";
import { ReasoningCompletions, type SharedChatClient } from "./reasoning-completions.js";
import { redactSecrets, registerSecret } from "./redact-secrets.js";
import { createRetryingFetch, type Fetch, type UsageInfo } from "./retrying-fetch.js";
import {
  type ChatMessage,
  type ResponseFormat,
  runStructured,
  type StructuredRequest,
  type StructuredResult,
} from "./structured-output.js";
import { toModelError } from "./to-model-error.js";
import { createUsageLedger, type UsageLedger } from "./usage-ledger.js";

export interface CreateModelsOptions {
  /** Stop sending new calls once this much has been spent (in-flight calls finish and are recorded). */
  budget?: { usd: number };
  /** The HTTP layer under both SDKs (retries are added on top of it). Default: global fetch. */
  fetch?: Fetch;
  now?: () => number;
  random?: () => number;
  /** Waits between retries; tests inject an instant one. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every call's usage as soon as it is known, e.g. to store it: what was paid for is never lost. */
  onUsage?: (usage: Usage) => void;
  logger?: ModelsLogger;
  /** Where API keys are read from; default process.env. Keys are read here, once, and never stored elsewhere. */
  env?: Record<string, string | undefined>;
  /** Backoff tuning. */
  retry?: { initialDelayMs?: number; maxDelayMs?: number; maxRetryAfterMs?: number };
  /** Records every model exchange (`recordCassette`) or serves a recording back instead of the network (`replayCassette`). */
  cassette?: Cassette;
}

export interface ChatOverrides {
  temperature?: number;
  seed?: number;
  maxTokens?: number;
}

export interface CompleteRequest {
  messages: ChatMessage[];
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  responseFormat?: ResponseFormat;
}

export interface CompleteResult {
  text: string;
  usage: Usage;
  finishReason?: string;
}

export interface Models {
  config: ModelsConfig;
  /** A LangChain ChatOpenAI for tool calling (the actor), with retries, usage accounting and the budget wired in. */
  chat(role: Role, overrides?: ChatOverrides): ChatOpenAI;
  /** Plain completion through the openai SDK. */
  complete(role: Role, request: CompleteRequest): Promise<CompleteResult>;
  /** Structured output: json_schema -> json_object -> text fallback, repair, zod validation, retries showing the error. */
  structured<T>(role: Role, request: StructuredRequest<T>): Promise<StructuredResult<T>>;
  /** Embeddings with the embedder role, batched by its `batchSize`; vectors in input order. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
  /**
   * Runs `work` and returns, besides its result, the usage of every call made inside it (also through `chat()`),
   * e.g. one rollout's usage. Scopes nest.
   */
  track<T>(work: () => Promise<T>): Promise<{ result: T; usage: UsageTotals; records: Usage[] }>;
  usage: UsageLedger;
  budget: Budget;
}

/** Sent to keyless endpoints (Ollama, the sim): the SDK insists on some key. */
const placeholderApiKey = "tfgrpo-no-key";

const providerUsageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative().optional(),
  completion_tokens: z.number().int().nonnegative().optional(),
  total_tokens: z.number().int().nonnegative().nullish(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
  completion_tokens_details: z
    .object({ reasoning_tokens: z.number().int().nonnegative().nullish() })
    .nullish(),
});

/** The output tokens a provider bills (see the kernel's rule), from its usage object. */
export function billedOutputTokens(data: z.infer<typeof providerUsageSchema>): number {
  return billedOutput({
    prompt: data.prompt_tokens,
    completion: data.completion_tokens,
    reasoning: data.completion_tokens_details?.reasoning_tokens,
    total: data.total_tokens,
  });
}

interface RoleRuntime {
  role: Role;
  entry: ModelEntry;
  label: string;
  apiKey: string;
  fetch: Fetch;
  client: OpenAI;
  /** The OpenAI client every chat model of the role shares (built by the first one that calls). */
  chatClient: SharedChatClient;
}

export function createModels(config: ModelsConfig, options: CreateModelsOptions = {}): Models {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const budget = createBudget(options.budget?.usd);
  const usage = createUsageLedger({
    onRecord: (record) => {
      budget.charge(record.costUsd);
      options.onUsage?.(record);
    },
  });
  // Each `track()` scope collects the usage of the calls made inside it, through any client.
  const scopes = new AsyncLocalStorage<Usage[][]>();
  const degradedModes = new Map<Role, StructuredOutputMode>();
  const warnedNoUsage = new Set<Role>();

  // Keys are read now, so a missing one fails at start; they live only in these closures and the SDK clients.
  const keys = new Map<Role, string>();
  for (const [role, entry] of Object.entries(config.roles) as Array<[Role, ModelEntry]>) {
    if (entry.apiKeyEnv === undefined) continue;
    const key = env[entry.apiKeyEnv];
    if (!key) {
      throw new TfgrpoError(
        "invalid_config",
        `roles.${role} -> ${entry.ref}: API key variable ${entry.apiKeyEnv} is not set`,
        { details: { role, field: `${entry.ref}.apiKeyEnv`, variable: entry.apiKeyEnv } },
      );
    }
    registerSecret(key);
    keys.set(role, key);
  }

  const runtimes = new Map<Role, RoleRuntime>();
  const runtime = (role: Role): RoleRuntime => {
    const existing = runtimes.get(role);
    if (existing) return existing;
    const entry = config.roles[role];
    if (!entry) {
      throw new TfgrpoError(
        "invalid_config",
        `no model is configured for role "${role}"${config.source ? ` in ${config.source}` : ""}`,
        { details: { role, field: `roles.${role}` } },
      );
    }
    const label = `${role} (${entry.model})`;
    const fetch = createRetryingFetch({
      // Providers' departures from the wire format are undone below the retries, so retries see them fixed.
      fetch: createProviderFetch({
        // The cassette holds the wire traffic as the provider sent it; replayed, it passes the same fixes again.
        fetch: options.cassette ? options.cassette.fetchFor(role, baseFetch) : baseFetch,
        refuses: entry.refuses,
      }),
      label,
      timeoutMs: entry.timeoutMs,
      maxRetries: entry.maxRetries,
      ...options.retry,
      sleep,
      random,
      now,
      ...(options.logger ? { logger: options.logger } : {}),
      beforeRequest: () => budget.assertAvailable(role),
      onUsage: (raw, info) => record(role, entry, raw, info),
    });
    const apiKey = keys.get(role) ?? placeholderApiKey;
    const client = new OpenAI({
      apiKey,
      baseURL: entry.baseUrl,
      fetch,
      maxRetries: 0,
      timeout: sdkTimeoutMs(entry, options.retry?.maxRetryAfterMs),
      // Never forward OpenAI organisation/project ids from the environment to another provider.
      organization: null,
      project: null,
      adminAPIKey: null,
      logLevel: "off",
    });
    const created: RoleRuntime = { role, entry, label, apiKey, fetch, client, chatClient: {} };
    runtimes.set(role, created);
    return created;
  };

  const record = (role: Role, entry: ModelEntry, raw: unknown, info: UsageInfo) => {
    const parsed = providerUsageSchema.safeParse(raw);
    if ((!parsed.success || parsed.data.prompt_tokens === undefined) && !warnedNoUsage.has(role)) {
      warnedNoUsage.add(role);
      options.logger?.warn?.(
        `${role} (${entry.model}): the provider sent no token usage; its cost counts as 0`,
      );
    }
    const data = parsed.success ? parsed.data : {};
    const tokens: TokenCounts = {
      inputTokens: data.prompt_tokens ?? 0,
      cachedInputTokens: data.prompt_tokens_details?.cached_tokens ?? 0,
      outputTokens: billedOutputTokens(data),
    };
    const entryUsage: Usage = {
      role,
      model: entry.model,
      ...tokens,
      costUsd: computeCostUsd(tokens, entry.prices),
      latencyMs: Math.max(0, info.latencyMs),
    };
    usage.record(entryUsage);
    recordModelCallSpan(entryUsage, info, entry.baseUrl);
    for (const scope of scopes.getStore() ?? []) scope.push(entryUsage);
  };

  /** Runs one SDK call and returns the usage records its HTTP responses produced. */
  const collect = async <T>(work: () => Promise<T>): Promise<{ result: T; records: Usage[] }> => {
    const records: Usage[] = [];
    const result = await scopes.run([...(scopes.getStore() ?? []), records], work);
    return { result, records };
  };

  const complete = async (role: Role, request: CompleteRequest): Promise<CompleteResult> => {
    const rt = runtime(role);
    budget.assertAvailable(role);
    const { entry } = rt;
    const temperature = request.temperature ?? entry.temperature;
    const maxTokens = request.maxTokens ?? entry.maxTokens;
    const body = {
      ...entry.params,
      model: entry.model,
      messages: request.messages,
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { [maxTokensField(entry.model)]: maxTokens } : {}),
      ...(request.seed !== undefined && entry.supportsSeed ? { seed: request.seed } : {}),
      ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
      stream: false as const,
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const startedAt = now();
    let completion: OpenAI.Chat.ChatCompletion;
    let records: Usage[];
    // The SDK keeps an abort listener per request on the signal it is given: this call's own, not the caller's.
    using call = linkAbortSignal(request.signal);
    try {
      ({ result: completion, records } = await collect(() =>
        rt.client.chat.completions.create(body, call.signal ? { signal: call.signal } : {}),
      ));
    } catch (error) {
      throw toModelError(error, { role, model: entry.model, label: rt.label, signal: request.signal });
    }
    const choice = completion.choices?.[0];
    if (!choice) {
      throw new TfgrpoError("model_error", `${rt.label}: the response has no choices`, {
        details: { role, model: entry.model },
      });
    }
    return {
      text: choice.message?.content ?? "",
      usage: sum(records, role, entry.model, now() - startedAt),
      ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
    };
  };

  const models: Models = {
    config,
    chat(role, overrides = {}) {
      const rt = runtime(role);
      const { entry } = rt;
      const temperature = overrides.temperature ?? entry.temperature;
      const maxTokens = overrides.maxTokens ?? entry.maxTokens;
      const fields: ChatOpenAIFields = {
        model: entry.model,
        apiKey: rt.apiKey,
        ...(temperature !== undefined ? { temperature } : {}),
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        modelKwargs: { ...entry.params },
        maxRetries: 0,
        timeout: sdkTimeoutMs(entry, options.retry?.maxRetryAfterMs),
        useResponsesApi: false,
        configuration: {
          baseURL: entry.baseUrl,
          fetch: rt.fetch,
          organization: null,
          project: null,
          adminAPIKey: null,
          logLevel: "off",
        },
      };
      return new AccountedChatOpenAI(
        // Reasoning returned beside tool calls goes back with them (required by reasoning models in thinking mode).
        { ...fields, completions: new ReasoningCompletions(fields, rt.chatClient) },
        {
          beforeCall: () => budget.assertAvailable(role),
          mapError: (error, signal) =>
            toModelError(error, { role, model: entry.model, label: rt.label, signal }),
          supportsSeed: entry.supportsSeed,
        },
        overrides.seed !== undefined && entry.supportsSeed ? { seed: overrides.seed } : {},
      );
    },
    complete,
    structured(role, request) {
      const rt = runtime(role);
      return runStructured(
        {
          role,
          model: rt.entry.model,
          label: rt.label,
          complete: (inner) => complete(role, inner),
          mode: degradedModes.get(role) ?? rt.entry.structuredOutput,
          onDegrade: (from, to, reason) => {
            degradedModes.set(role, to);
            options.logger?.warn?.(
              redactSecrets(`${rt.label}: provider refused ${from}, using ${to}: ${reason}`),
            );
          },
          now,
        },
        request,
      );
    },
    async embed(texts, embedOptions = {}) {
      const rt = runtime("embedder");
      const { entry } = rt;
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += entry.batchSize) {
        const batch = texts.slice(start, start + entry.batchSize);
        budget.assertAvailable("embedder");
        let response: OpenAI.CreateEmbeddingResponse;
        using call = linkAbortSignal(embedOptions.signal);
        try {
          ({ result: response } = await collect(() =>
            rt.client.embeddings.create(
              {
                ...entry.params,
                model: entry.model,
                input: batch,
                // Explicit: the SDK otherwise asks for base64, which many compatible servers do not speak.
                encoding_format: "float",
                ...(entry.dimensions !== undefined ? { dimensions: entry.dimensions } : {}),
              },
              call.signal ? { signal: call.signal } : {},
            ),
          ));
        } catch (error) {
          throw toModelError(error, {
            role: "embedder",
            model: entry.model,
            label: rt.label,
            signal: embedOptions.signal,
          });
        }
        const ordered = [...(response.data ?? [])].sort((a, b) => a.index - b.index);
        if (ordered.length !== batch.length || !ordered.every((item) => Array.isArray(item.embedding))) {
          throw new TfgrpoError(
            "model_error",
            `${rt.label}: asked for ${batch.length} embeddings (texts ${start}..${start + batch.length - 1}), got ${ordered.length}`,
            { details: { role: "embedder", model: entry.model } },
          );
        }
        for (const item of ordered) vectors.push(item.embedding);
      }
      return vectors;
    },
    async track(work) {
      const { result, records } = await collect(work);
      return { result, usage: records.reduce<UsageTotals>(addUsage, emptyUsageTotals()), records };
    },
    usage,
    budget,
  };
  return models;
}

function sum(records: Usage[], role: Role, model: string, latencyMs: number): Usage {
  const total = records.reduce<UsageTotals>(addUsage, emptyUsageTotals());
  return {
    role,
    model,
    inputTokens: total.inputTokens,
    cachedInputTokens: total.cachedInputTokens,
    outputTokens: total.outputTokens,
    costUsd: total.costUsd,
    latencyMs: records.length > 0 ? total.latencyMs : Math.max(0, latencyMs),
  };
}

/** OpenAI's reasoning models refuse `max_tokens`; everyone else (and every compatible server) expects it. */
function maxTokensField(model: string): "max_tokens" | "max_completion_tokens" {
  return /^o\d/.test(model) || (model.startsWith("gpt-5") && !model.startsWith("gpt-5-chat"))
    ? "max_completion_tokens"
    : "max_tokens";
}

/**
 * The SDKs' own deadline covers a whole call, retries included; per-attempt deadlines are the retrying fetch's job.
 * So it is set past the longest a call can legitimately take.
 */
function sdkTimeoutMs(entry: ModelEntry, maxRetryAfterMs = 120_000): number {
  const longest =
    entry.timeoutMs * (entry.maxRetries + 1) + maxRetryAfterMs * 1.1 * entry.maxRetries + 10_000;
  return Math.min(longest, 2_000_000_000);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
