import { headers } from "@nats-io/transport-node";
import { type JobResult, type Subject, serializeError, TfgrpoError } from "@tfgrpo/protocol";
import { checkPayloadSize, encodePayload, headerNames } from "./nats-codec.js";
import type { NatsQueueContext } from "./nats-queue-context.js";

/** Longest pause between two publishes of one result: short enough to catch a server that is back. */
const maxBackoffMs = 2000;

export interface PublishResultOptions {
  /** Give up (a `bus_timeout`) when the result is not stored within this long. */
  timeoutMs: number;
  /** Stops retrying at once (a worker shutting down). */
  signal?: AbortSignal;
}

/**
 * Publishes a job's result to the results stream with the job's dedupe id, so when a job ran twice (a worker
 * presumed dead finished after all, or a publish whose confirmation was lost is sent again) only the first result
 * is kept. Resolves once JetStream has stored it (or recognised it as a duplicate): only then may the job be acked.
 *
 * Retried until `timeoutMs`: while disconnected it waits for the reconnect, and a publish in flight at a reconnect
 * is sent again at once. The NATS client drops what it buffered while disconnected, and the reply to a request
 * sent over the old connection never comes, so waiting for it would last the whole JetStream publish timeout.
 */
export async function publishResult(
  context: NatsQueueContext,
  subject: Subject<unknown, unknown>,
  replyTo: string,
  result: JobResult<unknown>,
  options: PublishResultOptions,
): Promise<void> {
  const where = `${subject.name} result of job ${result.jobId}`;
  let hdrs = headers();
  let data = await encodePayload(result, hdrs);
  try {
    checkPayloadSize(where, data, hdrs, context.maxPayload());
  } catch (error) {
    // An output too large to carry is a failed job, not one to retry forever.
    const failure: JobResult<unknown> = {
      jobId: result.jobId,
      ok: false,
      error: serializeError(error),
      attempt: result.attempt,
    };
    hdrs = headers();
    data = await encodePayload(failure, hdrs);
  }
  hdrs.set(headerNames.jobId, result.jobId);
  const target = context.names.resultSubject(subject, replyTo);
  const msgID = context.names.messageId(subject, result.jobId);
  const { connection, logger } = context;
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  let failures = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const remaining = deadline - Date.now();
    if (context.nc.isClosed() || remaining <= 0) {
      const why = lastError === undefined ? "" : ` (last: ${(lastError as Error).message})`;
      throw new TfgrpoError(
        context.nc.isClosed() ? "bus_closed" : "bus_timeout",
        `${where}: not stored within ${options.timeoutMs} ms${why}`,
        { cause: lastError, details: { subject: subject.name, jobId: result.jobId, attempts: failures } },
      );
    }
    const reconnected = connection.nextReconnect().then(() => "reconnected" as const);
    if (!connection.connected) {
      await within(reconnected, remaining, options.signal);
      continue;
    }
    const publish = context.js.publish(target, data, {
      msgID,
      headers: hdrs,
      timeout: Math.max(1, Math.min(remaining, context.publishTimeoutMs)),
    });
    try {
      const outcome = await within(Promise.race([publish, reconnected]), remaining, options.signal);
      if (outcome !== "reconnected" && outcome !== timedOutMarker) return;
      // Superseded: a late settlement of the old publish concerns nobody.
      publish.catch(() => undefined);
      if (outcome === "reconnected") logger.info?.(`${where}: sent again after a reconnect (same dedupe id)`);
    } catch (error) {
      publish.catch(() => undefined);
      if (options.signal?.aborted) throw error;
      lastError = error;
      failures++;
      if (failures === 1 || failures % 10 === 0) {
        logger.warn(`${where}: publish failed (${(error as Error).message}), retrying`);
      }
      const pause = Math.min(maxBackoffMs, 125 * 2 ** failures, Math.max(0, deadline - Date.now()));
      await within(reconnected, pause, options.signal);
    }
  }
}

const timedOutMarker = Symbol("timed out");

/** `promise`'s value, or `timedOutMarker` after `ms`; rejects when `signal` aborts. Leaves no timer behind. */
async function within<T>(
  promise: Promise<T>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<T | typeof timedOutMarker> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<typeof timedOutMarker>((resolve, reject) => {
        timer = setTimeout(() => resolve(timedOutMarker), ms);
        if (signal) {
          onAbort = () => reject(signal.reason);
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
