import { headers } from "@nats-io/transport-node";
import { type JobResult, type Subject, serializeError } from "@tfgrpo/protocol";
import { checkPayloadSize, encodePayload, headerNames } from "./nats-codec.js";
import type { NatsQueueContext } from "./nats-queue-context.js";
import { type PublishToStreamOptions, publishToStream } from "./nats-stream-publish.js";

export type PublishResultOptions = Omit<PublishToStreamOptions, "where">;

/**
 * Publishes a job's result to the results stream with the job's dedupe id, so when a job ran twice (a worker
 * presumed dead finished after all, or a publish whose confirmation was lost is sent again) only the first result
 * is kept. Resolves once JetStream has stored it (or recognised it as a duplicate): only then may the job be acked.
 *
 * Retried until `timeoutMs`, across reconnects (`publishToStream`).
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
  await publishToStream(
    context,
    target,
    data,
    { msgID, headers: hdrs },
    {
      ...options,
      where,
      details: { subject: subject.name, jobId: result.jobId },
    },
  );
}
