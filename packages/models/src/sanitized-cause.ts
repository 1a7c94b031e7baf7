import { redactSecrets } from "./redact-secrets.js";

/**
 * A copy of what an attempt failed on that may leave this package: name, message, `code` and `status`, with secrets
 * redacted, down a short cause chain. SDK errors carry request headers and bodies, so the original is never kept;
 * this copy is what a caller reads as the final `model_error`'s `cause`.
 */
export function sanitizedCause(error: unknown, depth = 0): Error {
  const source = (typeof error === "object" && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    status?: unknown;
    cause?: unknown;
  };
  const message = typeof source.message === "string" ? source.message : String(error);
  const copy = new Error(
    redactSecrets(message),
    depth < 3 && source.cause !== undefined ? { cause: sanitizedCause(source.cause, depth + 1) } : undefined,
  ) as Error & { code?: string; status?: number };
  if (typeof source.name === "string") copy.name = source.name;
  if (typeof source.code === "string") copy.code = source.code;
  if (typeof source.status === "number") copy.status = source.status;
  return copy;
}
