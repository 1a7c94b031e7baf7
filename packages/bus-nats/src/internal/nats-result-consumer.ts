import type { ConsumerMessages, JsMsg } from "@nats-io/jetstream";
import { formatZodIssues, type Handle, type JobResult, type Subject, TfgrpoError } from "@tfgrpo/protocol";
import { decodePayload, headerNames, resultEnvelopeSchema } from "./nats-codec.js";
import { alignConsumerAcrossRestarts } from "./nats-consumer-alignment.js";
import { ensureConsumer, resultsConsumerConfig } from "./nats-jetstream-setup.js";
import { replyToken } from "./nats-names.js";
import { type NatsQueueContext, sleep, timedOut } from "./nats-queue-context.js";

/** Results pulled ahead of onResult; small, because their ack timers run while they wait. */
const resultBatch = 16;

/**
 * Reads a result message. A payload that is not a JobResult at all is unusable (null); one whose output fails the
 * subject's schema (a worker running another version, say) becomes an `ok: false` result so the caller hears of it.
 */
async function readResult(
  subject: Subject<unknown, unknown>,
  msg: JsMsg,
): Promise<JobResult<unknown> | null> {
  const decoded = await decodePayload(msg.data, msg.headers);
  const parsed = decoded.success ? resultEnvelopeSchema.safeParse(decoded.value) : undefined;
  if (!parsed?.success) return null;
  const result = parsed.data;
  if (!result.ok) return result;
  const output = subject.output.safeParse(result.output);
  if (output.success) return { ...result, output: output.data };
  const error = new TfgrpoError(
    "invalid_input",
    `${subject.name} output of job ${result.jobId}: ${formatZodIssues(output.error.issues)}`,
    { details: { subject: subject.name, jobId: result.jobId, which: "output" } },
  );
  return { jobId: result.jobId, ok: false, error: error.toJSON(), attempt: result.attempt };
}

/**
 * Delivers the results addressed to one replyTo, through a durable consumer named after it: results published
 * while nobody listened wait in the stream, and a runner that crashed before acking a result gets it again when it
 * comes back with the same replyTo. A result is acked once onResult resolves, nak'ed (redelivered after a delay)
 * when it throws. Results are handed over one at a time, in the order they were stored.
 */
export async function startResultConsumer(
  context: NatsQueueContext,
  subject: Subject<unknown, unknown>,
  replyTo: string,
  onResult: (result: JobResult<unknown>) => Promise<void>,
): Promise<Handle> {
  const { names, logger } = context;
  replyToken(replyTo);
  await context.ensureStreams();
  const consumerConfig = resultsConsumerConfig(
    names.resultsDurable(subject, replyTo),
    names.resultSubject(subject, replyTo),
    context,
  );
  const info = await ensureConsumer(context.jsm, names.resultsStream, consumerConfig, logger);
  let current: ConsumerMessages | undefined;
  const stopAligning = await alignConsumerAcrossRestarts(context, names.resultsStream, consumerConfig, () => {
    void current?.close();
  });
  const ackWaitMs = (info.config.ack_wait ?? 0) / 1e6 || context.ackWaitMs;
  const consumer = context.js.consumers.getConsumerFromInfo(info);
  let stopping = false;

  const handleResult = async (msg: JsMsg) => {
    const result = await readResult(subject, msg);
    if (!result) {
      const jobId = msg.headers?.get(headerNames.jobId) ?? "?";
      logger.error(`${subject.name} result of job ${jobId} for ${replyTo} is unreadable; discarding it`);
      msg.term();
      return;
    }
    // A slow onResult (a busy database) must not make the result look abandoned.
    const timer = setInterval(() => msg.working(), ackWaitMs / 3);
    try {
      await onResult(result);
      msg.ack();
    } catch (error) {
      logger.warn(
        `${subject.name} result of job ${result.jobId} for ${replyTo}: onResult failed (${(error as Error).message}); ` +
          `redelivering in ${context.resultRetryDelayMs} ms`,
      );
      msg.nak(context.resultRetryDelayMs);
    } finally {
      clearInterval(timer);
    }
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      try {
        current = await consumer.consume({ max_messages: resultBatch });
        for await (const msg of current) {
          if (stopping) {
            msg.nak();
            continue;
          }
          await handleResult(msg);
          failures = 0;
        }
      } catch (error) {
        if (stopping) break;
        failures++;
        if (failures === 1 || failures % 20 === 0) {
          logger.warn(
            `${subject.name} results for ${replyTo}: consuming failed (${(error as Error).message}); retrying`,
          );
        }
        await sleep(Math.min(5000, 100 * 2 ** failures));
      } finally {
        current = undefined;
      }
    }
  })();

  return {
    async close() {
      if (stopping) return;
      stopping = true;
      stopAligning();
      void current?.close();
      await timedOut(loop, context.closeTimeoutMs);
    },
  };
}
