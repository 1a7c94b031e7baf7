import { type Role, TfgrpoError } from "@tfgrpo/protocol";
import { redactSecrets } from "./redact-secrets.js";
import { attemptsHeader } from "./retrying-fetch.js";

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
  const message = typeof record.message === "string" ? record.message : String(error);
  const suffix = attempts && attempts > 1 ? ` (after ${attempts} attempts)` : "";
  return new TfgrpoError("model_error", redactSecrets(`${context.label}: ${message}${suffix}`), {
    details: {
      role: context.role,
      model: context.model,
      ...(status !== undefined ? { status } : {}),
      ...(attempts !== undefined ? { attempts } : {}),
    },
  });
}
