import { type Role, TfgrpoError } from "@tfgrpo/protocol";
import { redactSecrets } from "./redact-secrets.js";
import { type AttemptFailure, attemptsHeader, failuresHeader } from "./retrying-fetch.js";
import { sanitizedCause } from "./sanitized-cause.js";

export interface ModelErrorContext {
  role: Role;
  model: string;
  /** `critic (deepseek-chat)`. */
  label: string;
  signal?: AbortSignal | undefined;
}

/**
 * Whatever the SDKs threw, as the error callers get: the caller's own abort reason, a TfgrpoError found anywhere in
 * the cause chain (budget, exhausted retries), or a new `model_error`. The original error is not kept as `cause`:
 * SDK errors carry headers and request data, and nothing secret may leave this package.
 */
export function toModelError(error: unknown, context: ModelErrorContext): unknown {
  if (context.signal?.aborted) return context.signal.reason ?? error;
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    if (TfgrpoError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  const record = (typeof error === "object" && error !== null ? error : {}) as {
    status?: unknown;
    message?: unknown;
    name?: unknown;
    headers?: { get?: (name: string) => string | null };
  };
  if (record.name === "AbortError") return error;
  const status = typeof record.status === "number" ? record.status : undefined;
  const attemptsText = typeof record.headers?.get === "function" ? record.headers.get(attemptsHeader) : null;
  const attempts = attemptsText ? Number(attemptsText) : undefined;
  const failures = earlierFailures(record.headers?.get?.(failuresHeader) ?? null);
  const message =
    describeFailedToolCall(error) ?? (typeof record.message === "string" ? record.message : String(error));
  const suffix = attempts && attempts > 1 ? ` (after ${attempts} attempts)` : "";
  return new TfgrpoError("model_error", redactSecrets(`${context.label}: ${message}${suffix}`), {
    cause: sanitizedCause(error),
    details: {
      role: context.role,
      model: context.model,
      ...(status !== undefined ? { status } : {}),
      ...(attempts !== undefined ? { attempts } : {}),
      ...(attempts !== undefined && attempts > 1
        ? {
            failures: [
              ...failures,
              {
                attempt: attempts,
                failure: redactSecrets(message),
                ...(status !== undefined ? { status } : {}),
              },
            ],
          }
        : {}),
    },
  });
}

/** The retrying fetch's header of earlier attempts' failures; anything unreadable is no history. */
function earlierFailures(text: string | null): AttemptFailure[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as AttemptFailure[]) : [];
  } catch {
    return [];
  }
}

/**
 * A 400 that names a failed tool call (Groq's `tool_use_failed`, with the generation it could not parse): said as
 * what it is, with the provider's own explanation (which schema rule the call broke, when it says) and the start of
 * the generation, so a user sees the model's mistake instead of "Bad Request".
 */
function describeFailedToolCall(error: unknown): string | undefined {
  const body = (error as { error?: unknown } | null)?.error;
  if (typeof body !== "object" || body === null) return undefined;
  const {
    code,
    message,
    failed_generation: generation,
  } = body as { code?: unknown; message?: unknown; failed_generation?: unknown };
  if (code !== "tool_use_failed") return undefined;
  const explanation = clip(message, 300);
  const shown = clip(generation, 200);
  return (
    `the provider rejected the tool call the model generated (400 tool_use_failed${explanation ? `: ${explanation}` : ""})` +
    (shown ? `: ${shown}` : "")
  );
}

/** A provider's text on one line, cut at `length` characters. */
function clip(value: unknown, length: number): string {
  const text = typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
  return text.length > length ? `${text.slice(0, length)}...` : text;
}
