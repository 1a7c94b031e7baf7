import { setMaxListeners } from "node:events";
import type { ConsumerMessages, JsMsg } from "@nats-io/jetstream";
import type { Msg, Subscription } from "@nats-io/transport-node";
import {
  contextFromHeaders,
  type Handle,
  inSpan,
  type JobContext,
  type JobResult,
  SpanKind,
  type Subject,
  safeParseJson,
  serializeError,
  spanAttributes,
  TfgrpoError,
  type WorkOptions,
} from "@tfgrpo/protocol";
import { validatePayload } from "@tfgrpo/protocol/internal";
import { z } from "zod";
import { isRetryableJobError, retryDelayMs } from "../job-retry-policy.js";
import { decodePayload, headerNames } from "./nats-codec.js";
import { alignConsumerAcrossRestarts } from "./nats-consumer-alignment.js";
import { ensureConsumer, workerConsumerConfig } from "./nats-jetstream-setup.js";
import { publishResult } from "./nats-publish-result.js";
import { type NatsQueueContext, timedOut } from "./nats-queue-context.js";

type AnyJobHandler = (input: unknown, context: JobContext) => Promise<unknown>;

interface ActiveJob {
  msg: JsMsg;
  /** Set when close() gave up waiting: the job was nak'ed for another worker, its outcome must be ignored. */
  abandoned: boolean;
}

/** The stored ids a job's result goes out with: its job id and where its result goes. */
interface JobAddress {
  jobId: string;
  replyTo: string;
}

const maxDeliveriesAdvisorySchema = z.object({
  stream: z.string(),
  consumer: z.string(),
  stream_seq: z.number().int().positive(),
  deliveries: z.number().int().positive(),
});

/**
 * A worker on one subject: pulls from the subject's durable consumer (shared by every worker of the subject, on
 * any machine) exactly as many jobs as it has free slots, so no job waits in a client buffer while its ack timer
 * runs. Each job heartbeats while its handler runs and until its result is stored, and is acked only once
 * JetStream has stored that result. Storing the result does not hold the job's slot: a result the server cannot
 * take yet (it restarts, its stream is full) is retried in the background, for at most the ack wait, while the
 * worker takes its next jobs; past that the job is left to redelivery (a result stored twice is deduplicated, and
 * a redelivered result is a no-op for the runner).
 */
export async function startJobWorker(
  context: NatsQueueContext,
  subject: Subject<unknown, unknown>,
  handler: AnyJobHandler,
  options: WorkOptions,
): Promise<Handle> {
  const { names, logger } = context;
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TfgrpoError("invalid_config", `${subject.name} worker: concurrency must be a positive integer`);
  }
  await context.ensureStreams();
  const durable = names.workerDurable(subject);
  const consumerConfig = workerConsumerConfig(durable, names.jobSubject(subject), context);
  const info = await ensureConsumer(context.jsm, names.jobsStream, consumerConfig, logger);
  let current: ConsumerMessages | undefined;
  const stopAligning = await alignConsumerAcrossRestarts(context, names.jobsStream, consumerConfig, () => {
    void current?.close();
  });
  // Heartbeat against the consumer's real ack wait: another process may have created it with a different one.
  const ackWaitMs = (info.config.ack_wait ?? 0) / 1e6 || context.ackWaitMs;
  const configuredMaxDeliver = info.config.max_deliver ?? -1;
  const maxDeliver = configuredMaxDeliver > 0 ? configuredMaxDeliver : Number.POSITIVE_INFINITY;
  const heartbeatMs =
    context.heartbeatMs === 0 ? 0 : Math.min(context.heartbeatMs ?? ackWaitMs / 3, ackWaitMs / 3);
  const consumer = context.js.consumers.getConsumerFromInfo(info);

  const controller = new AbortController();
  // Every job of the worker, and every result being stored, listens to this one signal (up to 2 x concurrency at once,
  // more than ten while a restarted server refuses results): no listener limit applies.
  setMaxListeners(0, controller.signal);
  /** Jobs whose handler runs: each holds one of the `concurrency` slots. */
  const running = new Map<Promise<unknown>, ActiveJob>();
  /** Jobs done, their result being stored: no slot, but a bound on how many wait at once. */
  const settling = new Map<Promise<void>, ActiveJob>();
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    wakeUp?.();
    wakeUp = undefined;
  };
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  // While the server refuses results, finished jobs pile up unacked; past this many the worker stops pulling more.
  const freeSlots = () =>
    Math.min(concurrency - running.size, 2 * concurrency - running.size - settling.size);

  /** Runs the job's handler; its result (undefined: nothing to publish, the job was settled otherwise). */
  const runHandler = async (job: ActiveJob, address: JobAddress): Promise<JobResult<unknown> | undefined> => {
    const { msg } = job;
    const { jobId } = address;
    const attempt = msg.info.deliveryCount;
    const decoded = await decodePayload(msg.data, msg.headers);
    if (!decoded.success) {
      const error = new TfgrpoError("invalid_input", `${subject.name} job ${jobId} input: ${decoded.error}`);
      return { jobId, ok: false, error: error.toJSON(), attempt };
    }
    const jobContext: JobContext = {
      jobId,
      attempt,
      signal: controller.signal,
      working: () => {
        if (!job.abandoned) msg.working();
      },
    };
    try {
      const input = validatePayload(subject, "input", decoded.value);
      const output = validatePayload(
        subject,
        "output",
        await inSpan(
          `job ${subject.name}`,
          {
            kind: SpanKind.CONSUMER,
            parent: contextFromHeaders((name) => msg.headers?.get(name) || undefined),
            attributes: {
              [spanAttributes.messagingSystem]: "nats",
              [spanAttributes.messagingDestination]: subject.name,
              [spanAttributes.messagingOperation]: "process",
              [spanAttributes.messagingMessageId]: jobId,
              [spanAttributes.messagingDeliveryCount]: attempt,
              [spanAttributes.attempt]: attempt,
              [spanAttributes.redelivered]: attempt > 1,
            },
          },
          () => handler(input, jobContext),
        ),
      );
      return { jobId, ok: true, output, attempt };
    } catch (error) {
      if (job.abandoned) return undefined;
      if (attempt < maxDeliver && isRetryableJobError(error)) {
        logger.warn(
          `${subject.name} job ${jobId} attempt ${attempt} failed, will retry: ${(error as Error).message}`,
        );
        msg.nak(retryDelayMs(attempt));
        return undefined;
      }
      return { jobId, ok: false, error: serializeError(error), attempt };
    }
  };

  /** Stores the job's result, then acks the job; a result not stored in time leaves the job to redelivery. */
  const settle = async (job: ActiveJob, address: JobAddress, result: JobResult<unknown>): Promise<void> => {
    const { msg } = job;
    const { jobId, replyTo } = address;
    try {
      await publishResult(context, subject, replyTo, result, {
        timeoutMs: ackWaitMs,
        signal: controller.signal,
      });
    } catch (error) {
      if (job.abandoned) return;
      // Not stored, so not acked: the job runs again (here or elsewhere) rather than its result being lost.
      logger.error(
        `${subject.name} job ${jobId}: result not stored (${(error as Error).message}); job will be redelivered`,
      );
      msg.nak(retryDelayMs(msg.info.deliveryCount));
      return;
    }
    if (job.abandoned) return;
    // An ack sent just before a reconnect may be lost, and its confirmation never comes: do not wait for it then.
    const reconnected = context.connection.nextReconnect().then(() => {
      throw new Error("reconnected before the ack was confirmed");
    });
    await Promise.race([msg.ackAck(), reconnected]).catch((error: Error) => {
      // The result is stored; at worst the job is redelivered, runs again and its duplicate result is dropped.
      logger.warn(`${subject.name} job ${jobId}: ack not confirmed (${error.message})`);
    });
  };

  const start = (msg: JsMsg) => {
    const job: ActiveJob = { msg, abandoned: false };
    const address: JobAddress = {
      jobId: msg.headers?.get(headerNames.jobId) ?? "",
      replyTo: msg.headers?.get(headerNames.replyTo) ?? "",
    };
    if (!address.jobId || !address.replyTo) {
      logger.error(
        `${subject.name}: dropping stream message ${msg.seq} without ${headerNames.jobId}/${headerNames.replyTo}`,
      );
      msg.term();
      return;
    }
    // Heart-beats until the job is acked or handed back, storing its result included.
    const timer =
      heartbeatMs > 0
        ? setInterval(() => {
            if (!job.abandoned) msg.working();
          }, heartbeatMs)
        : undefined;
    const failed = (stage: string) => (error: unknown) =>
      logger.error(`${subject.name}: job ${stage} failed unexpectedly: ${String(error)}`);
    const ran = runHandler(job, address)
      .catch((error: unknown) => {
        failed("handler")(error);
        return undefined;
      })
      .finally(() => {
        running.delete(ran);
        wake();
      });
    running.set(ran, job);
    void ran.then((result) => {
      if (result === undefined || job.abandoned) {
        clearInterval(timer);
        return;
      }
      const settled = settle(job, address, result)
        .catch(failed("result"))
        .finally(() => {
          clearInterval(timer);
          settling.delete(settled);
          wake();
        });
      settling.set(settled, job);
    });
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      const free = freeSlots();
      if (free <= 0) {
        await nap(60_000);
        continue;
      }
      try {
        current = await consumer.fetch({ max_messages: free, expires: context.fetchExpiresMs });
        for await (const msg of current) {
          // A message that arrived while closing goes straight back for another worker.
          if (stopping) msg.nak();
          else start(msg);
        }
        failures = 0;
      } catch (error) {
        if (stopping) break;
        failures++;
        if (failures === 1 || failures % 20 === 0) {
          logger.warn(`${subject.name} worker: fetching jobs failed (${(error as Error).message}); retrying`);
        }
        await nap(Math.min(5000, 100 * 2 ** failures));
      } finally {
        current = undefined;
      }
    }
  })();

  const deadLetters = await watchDeadLetters(context, subject, durable);

  return {
    async close() {
      if (stopping) return;
      stopping = true;
      stopAligning();
      deadLetters.unsubscribe();
      void current?.close();
      wake();
      await loop;
      // A job that ends meanwhile moves from running to settling: wait for both, then for what moved.
      const unsettled = async () => {
        while (running.size + settling.size > 0) {
          await Promise.allSettled([...running.keys(), ...settling.keys()]);
        }
      };
      const gaveUp = await timedOut(unsettled(), context.closeTimeoutMs);
      if (gaveUp) {
        // Hand what is left to other workers now rather than after its ack wait.
        logger.warn(
          `${subject.name} worker: ${running.size + settling.size} job(s) still running or storing their result ` +
            `after ${context.closeTimeoutMs} ms; returning them to the queue`,
        );
        for (const job of [...running.values(), ...settling.values()]) {
          job.abandoned = true;
          job.msg.nak();
        }
        controller.abort(new TfgrpoError("bus_closed", `${subject.name} worker is shutting down`));
      }
    },
  };
}

/**
 * A job delivered maxDeliver times without a result (its workers died, or hung without heartbeats) stays in the
 * work-queue stream but is never delivered again, so whoever waits for its result would wait forever. The server
 * announces it with a max-deliveries advisory: one worker of the subject (queue group) turns it into an
 * `ok: false` result and removes the job. Best effort: if no worker is connected at that moment, it stays put.
 */
async function watchDeadLetters(
  context: NatsQueueContext,
  subject: Subject<unknown, unknown>,
  durable: string,
): Promise<Subscription> {
  const { names, logger, jsm } = context;
  const stream = names.jobsStream;
  const onAdvisory = async (msg: Msg) => {
    const advisory = safeParseJson(msg.string(), maxDeliveriesAdvisorySchema);
    if (!advisory.success) return;
    const seq = advisory.value.stream_seq;
    const stored = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (!stored) return;
    const jobId = stored.header?.get(headerNames.jobId) ?? "";
    const replyTo = stored.header?.get(headerNames.replyTo) ?? "";
    if (jobId && replyTo) {
      const error = new TfgrpoError(
        "bus_timeout",
        `${subject.name} job ${jobId}: given up after ${advisory.value.deliveries} deliveries without a result ` +
          `(each worker died, stopped heart-beating past the ack wait, or was shut down)`,
        { details: { subject: subject.name, jobId, deliveries: advisory.value.deliveries } },
      );
      const result: JobResult<unknown> = {
        jobId,
        ok: false,
        error: error.toJSON(),
        attempt: advisory.value.deliveries,
      };
      await publishResult(context, subject, replyTo, result, { timeoutMs: context.ackWaitMs });
      logger.warn(error.message);
    }
    await jsm.streams.deleteMessage(stream, seq).catch(() => false);
  };
  const subscription = context.nc.subscribe(
    `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${durable}`,
    {
      queue: `${names.queueGroup(subject)}-dead-letters`,
      callback: (error, msg) => {
        if (error) return;
        onAdvisory(msg).catch((failure: unknown) =>
          logger.error(`${subject.name}: could not settle a job past max deliveries: ${String(failure)}`),
        );
      },
    },
  );
  await context.nc.flush();
  return subscription;
}
