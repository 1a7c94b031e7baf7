import type { MsgHdrs } from "@nats-io/transport-node";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { NatsQueueContext } from "./nats-queue-context.js";

/** Longest pause between two publishes of one message: short enough to catch a server that is back. */
const maxBackoffMs = 2000;

export interface PublishToStreamOptions {
  /** Give up (a `bus_timeout`) when the message is not stored within this long. */
  timeoutMs: number;
  /** Stops retrying at once (a worker shutting down). */
  signal?: AbortSignal;
  /** Names the message in logs and errors ("tfgrpo.actor.rollout result of job j1"). */
  where: string;
  /** Added to the error's details. */
  details?: Record<string, unknown>;
}

/**
 * Publishes one message to a JetStream stream with its dedupe id and resolves once the stream has stored it (or
 * recognised it as a duplicate). Retried until `timeoutMs`: while disconnected it waits for the reconnect, and a
 * publish in flight at a reconnect is sent again at once (same dedupe id, so stored once). The NATS client drops
 * what it buffered while disconnected, and the reply to a request sent over the old connection never comes, so
 * waiting for it would last the whole JetStream publish timeout, each time.
 */
export async function publishToStream(
  context: NatsQueueContext,
  target: string,
  data: Uint8Array,
  message: { msgID: string; headers: MsgHdrs },
  options: PublishToStreamOptions,
): Promise<void> {
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
        `${options.where}: not stored within ${options.timeoutMs} ms${why}`,
        { cause: lastError, details: { ...options.details, attempts: failures } },
      );
    }
    const reconnected = connection.nextReconnect().then(() => "reconnected" as const);
    if (!connection.connected) {
      await within(reconnected, remaining, options.signal);
      continue;
    }
    const publish = context.js.publish(target, data, {
      ...message,
      timeout: Math.max(1, Math.min(remaining, context.publishTimeoutMs)),
    });
    try {
      const outcome = await within(Promise.race([publish, reconnected]), remaining, options.signal);
      if (outcome !== "reconnected" && outcome !== timedOutMarker) return;
      // Superseded: a late settlement of the old publish concerns nobody.
      publish.catch(() => undefined);
      if (outcome === "reconnected")
        logger.info?.(`${options.where}: sent again after a reconnect (same dedupe id)`);
    } catch (error) {
      publish.catch(() => undefined);
      if (options.signal?.aborted) throw error;
      lastError = error;
      failures++;
      if (failures === 1 || failures % 10 === 0) {
        logger.warn(`${options.where}: publish failed (${(error as Error).message}), retrying`);
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
