import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import { type JobResult, type Subject, serializeError } from "@tfgrpo/protocol";
import type { BusLogger } from "../bus-logger.js";
import { checkPayloadSize, encodePayload, headerNames } from "./nats-codec.js";
import type { NatsNames } from "./nats-names.js";

/** What the job-queue parts of the NATS Bus share: the connection, names and settings. */
export interface NatsQueueContext {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: NatsNames;
  logger: BusLogger;
  ackWaitMs: number;
  maxDeliver: number;
  duplicateWindowMs: number;
  resultsMaxAgeMs: number;
  /** Automatic heartbeat period for running jobs; 0 turns automatic heartbeats off. Capped at ackWait / 3. */
  heartbeatMs: number | undefined;
  closeTimeoutMs: number;
  resultRetryDelayMs: number;
  /** How long one pull request waits for jobs before it is renewed. */
  fetchExpiresMs: number;
  /** Creates the jobs and results streams once per Bus (memoized; retried after a failure). */
  ensureStreams(): Promise<void>;
  maxPayload(): number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits for `promise` at most `ms`; true when it timed out. The timer is cleared either way, so a bound on
 * close() never keeps a finished process alive for the rest of it.
 */
export async function timedOut(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  try {
    return await Promise.race([promise.then(() => false), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Publishes a job's result to the results stream with the job's dedupe id, so when a job ran twice (a worker
 * presumed dead finished after all) only the first result is kept. Resolves once JetStream has stored it
 * (or recognised it as a duplicate): only then may the job be acked. Retries transient failures a few times.
 */
export async function publishResult(
  context: NatsQueueContext,
  subject: Subject<unknown, unknown>,
  replyTo: string,
  result: JobResult<unknown>,
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
  let lastError: unknown;
  for (let attempt = 1; attempt <= 4; attempt++) {
    try {
      await context.js.publish(target, data, { msgID, headers: hdrs });
      return;
    } catch (error) {
      lastError = error;
      if (context.nc.isClosed()) break;
      context.logger.warn(`${where}: publish failed (${(error as Error).message}), retrying`);
      await sleep(250 * 2 ** attempt);
    }
  }
  throw lastError;
}
