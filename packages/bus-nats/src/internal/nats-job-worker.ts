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
import { ensureConsumer, workerConsumerConfig } from "./nats-jetstream-setup.js";
import { type NatsQueueContext, publishResult, timedOut } from "./nats-queue-context.js";

type AnyJobHandler = (input: unknown, context: JobContext) => Promise<unknown>;

interface ActiveJob {
  msg: JsMsg;
  /** Set when close() gave up waiting: the job was nak'ed for another worker, its outcome must be ignored. */
  abandoned: boolean;
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
 * runs. Each job heartbeats while its handler runs, publishes its result, and is acked only once JetStream has
 * stored that result.
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
  const info = await ensureConsumer(
    context.jsm,
    names.jobsStream,
    workerConsumerConfig(durable, names.jobSubject(subject), context),
    logger,
  );
  // Heartbeat against the consumer's real ack wait: another process may have created it with a different one.
  const ackWaitMs = (info.config.ack_wait ?? 0) / 1e6 || context.ackWaitMs;
  const configuredMaxDeliver = info.config.max_deliver ?? -1;
  const maxDeliver = configuredMaxDeliver > 0 ? configuredMaxDeliver : Number.POSITIVE_INFINITY;
  const heartbeatMs =
    context.heartbeatMs === 0 ? 0 : Math.min(context.heartbeatMs ?? ackWaitMs / 3, ackWaitMs / 3);
  const consumer = context.js.consumers.getConsumerFromInfo(info);

  const controller = new AbortController();
  const active = new Map<Promise<void>, ActiveJob>();
  let stopping = false;
  let current: ConsumerMessages | undefined;
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

  const runJob = async (job: ActiveJob): Promise<void> => {
    const { msg } = job;
    const attempt = msg.info.deliveryCount;
    const jobId = msg.headers?.get(headerNames.jobId) ?? "";
    const replyTo = msg.headers?.get(headerNames.replyTo) ?? "";
    if (!jobId || !replyTo) {
      logger.error(
        `${subject.name}: dropping stream message ${msg.seq} without ${headerNames.jobId}/${headerNames.replyTo}`,
      );
      msg.term();
      return;
    }
    let result: JobResult<unknown>;
    const decoded = await decodePayload(msg.data, msg.headers);
    if (!decoded.success) {
      const error = new TfgrpoError("invalid_input", `${subject.name} job ${jobId} input: ${decoded.error}`);
      result = { jobId, ok: false, error: error.toJSON(), attempt };
    } else {
      const timer =
        heartbeatMs > 0
          ? setInterval(() => {
              if (!job.abandoned) msg.working();
            }, heartbeatMs)
          : undefined;
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
        result = { jobId, ok: true, output, attempt };
      } catch (error) {
        if (job.abandoned) return;
        if (attempt < maxDeliver && isRetryableJobError(error)) {
          logger.warn(
            `${subject.name} job ${jobId} attempt ${attempt} failed, will retry: ${(error as Error).message}`,
          );
          msg.nak(retryDelayMs(attempt));
          return;
        }
        result = { jobId, ok: false, error: serializeError(error), attempt };
      } finally {
        clearInterval(timer);
      }
    }
    if (job.abandoned) return;
    try {
      await publishResult(context, subject, replyTo, result);
    } catch (error) {
      // Not stored, so not acked: the job runs again (here or elsewhere) rather than its result being lost.
      logger.error(
        `${subject.name} job ${jobId}: result not stored (${(error as Error).message}); job will be redelivered`,
      );
      if (!job.abandoned) msg.nak(retryDelayMs(attempt));
      return;
    }
    if (job.abandoned) return;
    await msg.ackAck().catch((error: Error) => {
      // The result is stored; at worst the job is redelivered, runs again and its duplicate result is dropped.
      logger.warn(`${subject.name} job ${jobId}: ack not confirmed (${error.message})`);
    });
  };

  const start = (msg: JsMsg) => {
    const job: ActiveJob = { msg, abandoned: false };
    const done = runJob(job)
      .catch((error: unknown) => logger.error(`${subject.name}: job failed unexpectedly: ${String(error)}`))
      .finally(() => {
        active.delete(done);
        wake();
      });
    active.set(done, job);
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      const free = concurrency - active.size;
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
      deadLetters.unsubscribe();
      void current?.close();
      wake();
      await loop;
      const settled = Promise.allSettled([...active.keys()]);
      const gaveUp = await timedOut(settled, context.closeTimeoutMs);
      if (gaveUp) {
        // Hand what is left to other workers now rather than after its ack wait.
        logger.warn(
          `${subject.name} worker: ${active.size} job(s) still running after ${context.closeTimeoutMs} ms; returning them to the queue`,
        );
        for (const job of active.values()) {
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
      await publishResult(context, subject, replyTo, result);
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
