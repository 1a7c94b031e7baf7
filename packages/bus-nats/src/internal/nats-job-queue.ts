import { headers } from "@nats-io/transport-node";
import {
  type Handle,
  type Job,
  type JobContext,
  type JobResult,
  type Subject,
  TfgrpoError,
  traceHeaders,
  type WorkOptions,
} from "@tfgrpo/protocol";
import { validatePayload } from "@tfgrpo/protocol/internal";
import { checkPayloadSize, encodePayload, headerNames } from "./nats-codec.js";
import { ensureStream, jobsStreamConfig, resultsStreamConfig } from "./nats-jetstream-setup.js";
import { startJobWorker } from "./nats-job-worker.js";
import { checkJobId, replyToken } from "./nats-names.js";
import type { NatsQueueContext } from "./nats-queue-context.js";
import { startResultConsumer } from "./nats-result-consumer.js";
import { publishToStream } from "./nats-stream-publish.js";

/** Publishes in flight at once while enqueueing a batch: enough to hide round trips, not enough to flood. */
const publishWindow = 256;

export interface NatsJobQueue {
  enqueue(subject: Subject<unknown, unknown>, jobs: readonly Job<unknown>[], replyTo: string): Promise<void>;
  work(
    subject: Subject<unknown, unknown>,
    handler: (input: unknown, context: JobContext) => Promise<unknown>,
    options: WorkOptions,
  ): Promise<Handle>;
  consumeResults(
    subject: Subject<unknown, unknown>,
    replyTo: string,
    onResult: (result: JobResult<unknown>) => Promise<void>,
  ): Promise<Handle>;
}

/** The memoized stream set-up shared by enqueue, work and consumeResults of one Bus. */
export function createStreamSetup(context: Omit<NatsQueueContext, "ensureStreams">): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () => {
    ready ??= (async () => {
      await ensureStream(context.jsm, jobsStreamConfig(context.names, context), context.logger);
      await ensureStream(context.jsm, resultsStreamConfig(context.names, context), context.logger);
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
}

/**
 * Long jobs over JetStream: a work-queue stream of jobs (one durable pull consumer per subject, shared by all its
 * workers) and a results stream read through one durable consumer per (subject, replyTo).
 */
export function createNatsJobQueue(context: NatsQueueContext): NatsJobQueue {
  return {
    async enqueue(subject, jobs, replyTo) {
      replyToken(replyTo);
      const trace = traceHeaders();
      // Validate everything first: a batch with one bad job is rejected whole, not half-enqueued.
      const prepared = await Promise.all(
        jobs.map(async (job, index) => {
          checkJobId(subject, job.id, index);
          let input: unknown;
          try {
            input = validatePayload(subject, "input", job.input);
          } catch (error) {
            const message = (error as Error).message;
            throw new TfgrpoError("invalid_input", `${message} (job ${job.id}, index ${index})`, {
              details: { subject: subject.name, jobId: job.id, index },
            });
          }
          const hdrs = headers();
          const data = await encodePayload(input, hdrs);
          hdrs.set(headerNames.jobId, job.id);
          hdrs.set(headerNames.replyTo, replyTo);
          // A job run on another machine is a child of the span that enqueued it.
          for (const [name, value] of Object.entries(trace)) hdrs.set(name, value);
          checkPayloadSize(`${subject.name} job ${job.id}`, data, hdrs, context.maxPayload());
          return { id: job.id, data, hdrs };
        }),
      );
      await context.ensureStreams();
      const target = context.names.jobSubject(subject);
      for (let start = 0; start < prepared.length; start += publishWindow) {
        await Promise.all(
          prepared.slice(start, start + publishWindow).map(async ({ id, data, hdrs }) => {
            try {
              // Within the dedupe window, the same job id is stored once however often it is enqueued (or sent
              // again across a reconnect, for as long as a job's ack wait).
              await publishToStream(
                context,
                target,
                data,
                { msgID: context.names.messageId(subject, id), headers: hdrs },
                {
                  timeoutMs: context.ackWaitMs,
                  where: `${subject.name} job ${id}`,
                  details: { subject: subject.name, jobId: id },
                },
              );
            } catch (error) {
              throw new TfgrpoError(
                "remote_error",
                `${subject.name} job ${id}: not enqueued: ${(error as Error).message}`,
                {
                  cause: error,
                  details: { subject: subject.name, jobId: id },
                },
              );
            }
          }),
        );
      }
    },

    work: (subject, handler, options) => startJobWorker(context, subject, handler, options),

    consumeResults: (subject, replyTo, onResult) => startResultConsumer(context, subject, replyTo, onResult),
  };
}
