import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  DeliverPolicy,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import type { BusLogger } from "../bus-logger.js";
import type { NatsNames } from "./nats-names.js";

const streamNotFound = 10059;
const consumerNotFound = 10014;

function apiErrorCode(error: unknown): number | undefined {
  const apiError = (error as { apiError?: () => { err_code?: number } } | undefined)?.apiError;
  return typeof apiError === "function" ? apiError.call(error).err_code : undefined;
}

export interface StreamSettings {
  duplicateWindowMs: number;
  resultsMaxAgeMs: number;
}

export function jobsStreamConfig(names: NatsNames, settings: StreamSettings): StreamConfig {
  return {
    name: names.jobsStream,
    subjects: [names.jobsWildcard],
    // A job is removed as soon as a worker acks it; one consumer per subject (the workers' shared durable).
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: nanos(settings.duplicateWindowMs),
  } as StreamConfig;
}

export function resultsStreamConfig(names: NatsNames, settings: StreamSettings): StreamConfig {
  return {
    name: names.resultsStream,
    subjects: [names.resultsWildcard],
    // Results outlive their first reading, so a runner that resumes with a fresh consumer can read them again.
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(settings.resultsMaxAgeMs),
    duplicate_window: nanos(Math.min(settings.duplicateWindowMs, settings.resultsMaxAgeMs)),
  } as StreamConfig;
}

/**
 * Creates a stream unless it exists. Safe when several processes start at once: whoever loses the race reads the
 * winner's stream. An existing stream is used as it is (its owner may have tuned it), with a warning when it
 * differs in what the Bus relies on.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  config: StreamConfig,
  logger: BusLogger,
): Promise<StreamInfo> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(config.name);
  } catch (error) {
    if (apiErrorCode(error) !== streamNotFound) throw error;
    try {
      return await jsm.streams.add(config);
    } catch (addError) {
      // Lost a creation race (or the config differs from one created meanwhile): use what is there.
      info = await jsm.streams.info(config.name).catch(() => {
        throw addError;
      });
    }
  }
  if (info.config.retention !== config.retention || !info.config.subjects?.includes(config.subjects[0]!)) {
    logger.warn(
      `stream ${config.name} exists with retention ${info.config.retention} and subjects ` +
        `${JSON.stringify(info.config.subjects)}; expected ${config.retention} and ${config.subjects[0]}`,
    );
  }
  return info;
}

/** A durable pull consumer of one subject, every message from the start, acked explicitly. */
function durableConsumer(durable: string, filterSubject: string, ackWaitMs: number): Partial<ConsumerConfig> {
  return {
    durable_name: durable,
    filter_subject: filterSubject,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
  };
}

export function workerConsumerConfig(
  durable: string,
  filterSubject: string,
  settings: { ackWaitMs: number; maxDeliver: number },
): Partial<ConsumerConfig> {
  return {
    ...durableConsumer(durable, filterSubject, settings.ackWaitMs),
    max_deliver: settings.maxDeliver,
    // The server's default (1000 unacked jobs across all workers) would cap a large fleet.
    max_ack_pending: 20_000,
  };
}

export function resultsConsumerConfig(
  durable: string,
  filterSubject: string,
  settings: { ackWaitMs: number; resultsMaxAgeMs: number },
): Partial<ConsumerConfig> {
  return {
    ...durableConsumer(durable, filterSubject, settings.ackWaitMs),
    // A result is never given up on: it is redelivered until the runner has stored it.
    max_deliver: -1,
    // A run's consumer is cleaned up once its results could have expired anyway.
    inactive_threshold: nanos(settings.resultsMaxAgeMs),
  };
}

/** Creates a durable consumer unless it exists (race-safe like ensureStream); an existing one is used as it is. */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig>,
  logger: BusLogger,
): Promise<ConsumerInfo> {
  const durable = config.durable_name!;
  let info: ConsumerInfo;
  try {
    info = await jsm.consumers.info(stream, durable);
  } catch (error) {
    if (apiErrorCode(error) !== consumerNotFound) throw error;
    try {
      return await jsm.consumers.add(stream, config);
    } catch (addError) {
      info = await jsm.consumers.info(stream, durable).catch(() => {
        throw addError;
      });
    }
  }
  if (info.config.ack_wait !== config.ack_wait || info.config.max_deliver !== config.max_deliver) {
    logger.warn(
      `consumer ${stream}/${durable} exists with ack_wait ${(info.config.ack_wait ?? 0) / 1e6} ms and max_deliver ` +
        `${info.config.max_deliver}; using it as it is (delete it to apply ack_wait ${(config.ack_wait ?? 0) / 1e6} ms, ` +
        `max_deliver ${config.max_deliver})`,
    );
  }
  return info;
}

/**
 * Makes a durable consumer again when it is ahead of its stream: it has delivered past the stream's last sequence.
 * That happens when a server restarts without the messages it had not yet written to disk (a crash, a power cut):
 * the stream numbers new messages from where its disk left off, below what the consumer remembers delivering, and
 * the consumer would skip them all. Made again, it delivers what the stream holds (at least once: a job or result
 * it had delivered may come again). Returns the new consumer's info, or undefined when all was well.
 */
export async function realignConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig>,
  logger: BusLogger,
): Promise<ConsumerInfo | undefined> {
  const durable = config.durable_name!;
  const [streamInfo, info] = await Promise.all([
    jsm.streams.info(stream),
    jsm.consumers.info(stream, durable),
  ]);
  const last = streamInfo.state.last_seq;
  if (info.delivered.stream_seq <= last) return undefined;
  logger.warn(
    `consumer ${stream}/${durable} had delivered up to sequence ${info.delivered.stream_seq}, past the stream's ` +
      `last ${last} (the server came back without messages it had not written to disk); making it again`,
  );
  await jsm.consumers.delete(stream, durable).catch((error: unknown) => {
    if (apiErrorCode(error) !== consumerNotFound) throw error;
  });
  return ensureConsumer(jsm, stream, config, logger);
}
