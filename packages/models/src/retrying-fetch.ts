import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import type { ModelsLogger } from "./models-logger.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import { redactSecrets } from "./redact-secrets.js";
import { sanitizedCause } from "./sanitized-cause.js";

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RetryingFetchOptions {
  fetch: Fetch;
  /** Names the role and model in messages, e.g. `critic (deepseek-chat)`. */
  label: string;
  /** Deadline of one attempt, response body included. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A server's Retry-After is honoured up to this long. */
  maxRetryAfterMs?: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  logger?: ModelsLogger;
  /** Runs before a request's first attempt; throwing refuses the request (the budget does this). */
  beforeRequest?: () => void;
  /**
   * The `usage` object of each successful response (a JSON body, or the last SSE event that carries one), with the
   * attempt that succeeded (1 = no retry) and the choices' finish reasons.
   */
  onUsage?: (usage: unknown, info: UsageInfo) => void;
}

export interface UsageInfo {
  path: string;
  latencyMs: number;
  attempt: number;
  finishReasons: string[];
}

/** Response header telling error mappers how many attempts a request took. */
export const attemptsHeader = "x-tfgrpo-attempts";
/** Response header carrying the earlier attempts' failures (JSON `AttemptFailure[]`), for the final error. */
export const failuresHeader = "x-tfgrpo-failures";

/** What one attempt failed on; the final `model_error` lists them all in `details.failures`. */
export interface AttemptFailure {
  attempt: number;
  failure: string;
  status?: number;
}

const retryableStatuses = new Set([408, 409, 429]);

/**
 * A fetch for the openai SDK (and so for LangChain's ChatOpenAI) that owns retries: exponential backoff with jitter
 * on 429, 5xx, deadlines, dropped connections and garbled bodies; honours Retry-After. It lives below the SDKs because
 * only here can one injected clock govern every client, and a connection dropped mid-body still be retried: the body
 * is read inside the attempt. Both SDKs are configured with maxRetries 0 so retries never multiply.
 */
export function createRetryingFetch(options: RetryingFetchOptions): Fetch {
  const initialDelayMs = options.initialDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;

  const backoff = (retry: number, headers?: Headers): number => {
    const hinted = headers ? parseRetryAfter(headers, options.now()) : undefined;
    // Jitter spreads out many workers that were all told to wait the same time.
    if (hinted !== undefined)
      return Math.round(Math.min(hinted, maxRetryAfterMs) * (1 + 0.1 * options.random()));
    const exponential = Math.min(maxDelayMs, initialDelayMs * 2 ** retry);
    return Math.round(exponential * (0.5 + 0.5 * options.random()));
  };

  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const where = `${(init.method ?? "GET").toUpperCase()} ${url.pathname}`;
    const callerSignal = init.signal ?? undefined;
    // A streamed request body can be sent once only.
    const maxRetries = isReplayable(init.body) ? options.maxRetries : 0;
    options.beforeRequest?.();
    const startedAt = options.now();
    const failures: AttemptFailure[] = [];

    for (let attempt = 1; ; attempt++) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const isLast = attempt > maxRetries;
      const controller = new AbortController();
      const relayAbort = () => controller.abort(callerSignal?.reason);
      callerSignal?.addEventListener("abort", relayAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error("attempt deadline passed"));
      }, options.timeoutMs);
      let keepRelay = false;
      let failure: string;
      let failedOn: unknown;
      let retryHeaders: Headers | undefined;
      try {
        const response = await options.fetch(input, { ...init, signal: controller.signal });
        const contentType = response.headers.get("content-type") ?? "";
        if (response.ok && contentType.includes("text/event-stream") && response.body) {
          // A stream is handed over as it comes (it cannot be retried once read from); its usage is read from the
          // events as they pass, and the deadline becomes one per gap between chunks.
          clearTimeout(timer);
          keepRelay = true;
          return withStreamUsage(response, {
            path: url.pathname,
            attempt,
            startedAt,
            stall: () => controller.abort(new Error(`stream stalled: no data for ${options.timeoutMs} ms`)),
            done: () => callerSignal?.removeEventListener("abort", relayAbort),
          });
        }
        const body = await response.text();
        if (response.ok) {
          const parsed = contentType.includes("json")
            ? safeParseJson<Record<string, unknown>>(body)
            : undefined;
          if (parsed && !parsed.success) {
            failure = `malformed response body (${parsed.error})`;
          } else {
            // Every answered call is recorded, with or without usage numbers, so call counts stay right.
            const usage = parsed?.success && isObject(parsed.value) ? parsed.value.usage : undefined;
            reportUsage(usage, {
              path: url.pathname,
              latencyMs: options.now() - startedAt,
              attempt,
              finishReasons: parsed?.success ? finishReasonsOf(parsed.value) : [],
            });
            return rebuild(response, body, attempt);
          }
        } else if (isLast || !shouldRetry(response, body)) {
          return rebuild(response, body, attempt, failures);
        } else {
          failure = `HTTP ${response.status}`;
          failedOn = Object.assign(new Error(`HTTP ${response.status}: ${body.slice(0, 200)}`), {
            status: response.status,
          });
          retryHeaders = response.headers;
        }
      } catch (error) {
        if (callerSignal?.aborted) throw callerSignal.reason ?? error;
        if (TfgrpoError.isInstance(error)) throw error;
        failedOn = error;
        failure = timedOut
          ? `no response within ${options.timeoutMs} ms`
          : `connection failed (${describe(error)})`;
      } finally {
        clearTimeout(timer);
        if (!keepRelay) callerSignal?.removeEventListener("abort", relayAbort);
      }

      const status = (failedOn as { status?: unknown } | undefined)?.status;
      failures.push({
        attempt,
        failure: redactSecrets(failure),
        ...(typeof status === "number" ? { status } : {}),
      });
      if (isLast) {
        // The cause is the last attempt's failure (sanitized) and `failures` says what each attempt met.
        throw new TfgrpoError(
          "model_error",
          redactSecrets(
            `${options.label}: ${where}: ${failure} (${attempt} attempt${attempt === 1 ? "" : "s"})`,
          ),
          {
            cause: sanitizedCause(failedOn ?? failure),
            details: { attempts: attempt, reason: redactSecrets(failure), failures },
          },
        );
      }
      const delayMs = backoff(attempt - 1, retryHeaders);
      options.logger?.warn?.(
        redactSecrets(
          `${options.label}: ${where}: ${failure}; retry ${attempt} of ${maxRetries} in ${delayMs} ms`,
        ),
        { attempt, delayMs },
      );
      await options.sleep(delayMs, callerSignal);
    }
  };

  // The call was answered and paid for: a failing usage listener (a store write) must neither fail it nor, worse,
  // make it look like a network fault and send it again.
  function reportUsage(usage: unknown, info: UsageInfo): void {
    try {
      options.onUsage?.(usage, info);
    } catch (error) {
      options.logger?.error?.(
        redactSecrets(
          `${options.label}: recording usage failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  function withStreamUsage(
    response: Response,
    stream: { path: string; attempt: number; startedAt: number; stall: () => void; done: () => void },
  ): Response {
    const decoder = new TextDecoder();
    let pending = "";
    let usage: unknown;
    const finishReasons: string[] = [];
    let idle: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(stream.stall, options.timeoutMs);
      // Never keep a process alive for a stream its reader has walked away from.
      idle.unref?.();
    };
    watch();
    const readLines = (text: string) => {
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("data:") || !(line.includes('"usage"') || line.includes('"finish_reason"')))
          continue;
        const event = safeParseJson<Record<string, unknown>>(line.slice(5).trim());
        if (!event.success || !isObject(event.value)) continue;
        if (isObject(event.value.usage)) usage = event.value.usage;
        finishReasons.push(...finishReasonsOf(event.value));
      }
    };
    const body = response.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          watch();
          readLines(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
        flush() {
          clearTimeout(idle);
          readLines(`${decoder.decode()}\n`);
          stream.done();
          reportUsage(usage, {
            path: stream.path,
            latencyMs: options.now() - stream.startedAt,
            attempt: stream.attempt,
            finishReasons,
          });
        },
      }),
    );
    return new Response(body ?? null, {
      status: response.status,
      statusText: response.statusText,
      headers: withAttempts(response.headers, stream.attempt),
    });
  }
}

function shouldRetry(response: Response, body: string): boolean {
  // Not a standard header, but OpenAI sends it and means it.
  const hint = response.headers.get("x-should-retry");
  if (hint === "true") return true;
  if (hint === "false") return false;
  if (response.status === 400) {
    // The provider rejected the tool call the model generated (Groq's `tool_use_failed`, with `failed_generation`):
    // a sampling failure, not a bad request, so another sample may well succeed.
    const parsed = safeParseJson<{ error?: { code?: unknown } }>(body);
    return parsed.success && parsed.value?.error?.code === "tool_use_failed";
  }
  if (response.status === 429) {
    // An exhausted quota does not come back by waiting.
    const parsed = safeParseJson<{ error?: { code?: unknown; type?: unknown } }>(body);
    const code = parsed.success ? (parsed.value?.error?.code ?? parsed.value?.error?.type) : undefined;
    return code !== "insufficient_quota";
  }
  return retryableStatuses.has(response.status) || response.status >= 500;
}

function rebuild(
  response: Response,
  body: string,
  attempt: number,
  failures: readonly AttemptFailure[] = [],
): Response {
  const headers = withAttempts(response.headers, attempt);
  if (failures.length > 0) headers.set(failuresHeader, JSON.stringify(failures));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function withAttempts(source: Headers, attempt: number): Headers {
  const headers = new Headers(source);
  // The body is already decoded; these would describe the wire form, not what we hand over.
  headers.delete("content-encoding");
  headers.delete("content-length");
  headers.set(attemptsHeader, String(attempt));
  return headers;
}

function isReplayable(body: RequestInit["body"]): boolean {
  return body === undefined || body === null || typeof body === "string" || body instanceof URLSearchParams;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === "string" ? `${current.message} [${code}]` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  // The openai SDK turns any error whose text says "timed out" into a bare timeout error and drops its cause,
  // which would lose this message; the wording is kept out of its way.
  return parts.join(": ").replace(/time(d)? ?out/gi, "time limit");
}

/** The non-null `finish_reason`s of a completion or of one streamed chunk. */
function finishReasonsOf(body: Record<string, unknown>): string[] {
  if (!Array.isArray(body.choices)) return [];
  return body.choices.flatMap((choice) =>
    isObject(choice) && typeof choice.finish_reason === "string" ? [choice.finish_reason] : [],
  );
}
