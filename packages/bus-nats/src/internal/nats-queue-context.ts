import type { JetStreamClient, JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { BusLogger } from "../bus-logger.js";
import type { ConnectionWatch } from "./nats-connection-watch.js";
import type { NatsNames } from "./nats-names.js";

/** What the job-queue parts of the NATS Bus share: the connection, names and settings. */
export interface NatsQueueContext {
  nc: NatsConnection;
  /** Whether the connection is up, and a signal at each reconnect. */
  connection: ConnectionWatch;
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
  /** How long one JetStream publish waits for its confirmation before it is sent again. */
  publishTimeoutMs: number;
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
