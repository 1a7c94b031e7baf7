import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * Whether a failed job should go back to the queue (nak) rather than end as an `ok: false` result.
 * Most handler errors are final: a model that keeps answering garbage or a malformed input will not improve on
 * another worker, and redelivering them would only burn attempts. Retried are: errors that say so
 * (`details.retryable: true`), and the Bus's own transient failures (a call to another role that timed out,
 * a connection that closed under the handler). A handler can veto with `details.retryable: false`.
 */
export function isRetryableJobError(error: unknown): boolean {
  if (!TfgrpoError.isInstance(error)) return false;
  const retryable = error.details?.retryable;
  if (typeof retryable === "boolean") return retryable;
  return error.code === "bus_timeout" || error.code === "bus_closed";
}

/** Delay before a retried job is delivered again: 1 s, 2 s, 4 s... capped at 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
}
