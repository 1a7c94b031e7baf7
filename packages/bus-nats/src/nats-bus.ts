import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers, type Msg, type NatsConnection } from "@nats-io/transport-node";
import {
  type Bus,
  contextFromHeaders,
  type Handle,
  type HandlerContext,
  inSpan,
  type JobContext,
  type JobResult,
  type RequestOptions,
  SpanKind,
  type Subject,
  serializeError,
  spanAttributes,
  TfgrpoError,
  traceHeaders,
  type WorkOptions,
} from "@tfgrpo/protocol";
import { validatePayload } from "@tfgrpo/protocol/internal";
import { type BusLogger, stderrBusLogger } from "./bus-logger.js";
import { createConcurrencyLimiter } from "./internal/concurrency-limiter.js";
import { isNoResponders, toBusError } from "./internal/nats-bus-error.js";
import {
  checkPayloadSize,
  decodePayload,
  encodePayload,
  headerNames,
  type ReplyEnvelope,
  replyEnvelopeSchema,
} from "./internal/nats-codec.js";
import { watchConnection } from "./internal/nats-connection-watch.js";
import { createNatsJobQueue, createStreamSetup } from "./internal/nats-job-queue.js";
import { natsNames } from "./internal/nats-names.js";
import { type NatsQueueContext, timedOut } from "./internal/nats-queue-context.js";

export interface NatsBusOptions {
  /** nats://host:port, or several for a cluster. */
  servers: string | string[];
  /** Connection name shown by the server's monitoring (e.g. "tfgrpo serve actor"). */
  name?: string;
  /**
   * Names the JetStream streams (`<prefix>_JOBS`, `<prefix>_RESULTS`); its lower-case form is the first token of
   * every subject, so different prefixes share a server without seeing each other. Default "TFGRPO".
   */
  streamPrefix?: string;
  /** A job not acked (nor heart-beaten) within this long is redelivered. Default 30 s. */
  ackWaitMs?: number;
  /** Deliveries of a job before it is given up as an `ok: false` result. Default 5. */
  maxDeliver?: number;
  /** Enqueueing a job id again within this window is a no-op; a job's second result within it is dropped. Default 10 min. */
  duplicateWindowMs?: number;
  /** Heartbeat period of running jobs; default (and at most) ackWait / 3; 0 turns automatic heartbeats off. */
  heartbeatMs?: number;
  /** How long results are kept in the results stream (and an idle results consumer lives). Default 7 days. */
  resultsMaxAgeMs?: number;
  /** How long close() waits for running handlers before returning their jobs to the queue. Default 30 s. */
  closeTimeoutMs?: number;
  /** Delay before a result whose onResult threw is delivered again. Default 1 s. */
  resultRetryDelayMs?: number;
  logger?: BusLogger;
}

const defaultRequestTimeoutMs = 10 * 60_000;
/** How long after a reconnect "no responders" is taken for handlers not subscribed again yet. */
const reconnectSettleMs = 10_000;

type AnyHandler = (input: unknown, context: HandlerContext) => Promise<unknown>;

async function connectOrExplain(options: NatsBusOptions): Promise<NatsConnection> {
  const servers = Array.isArray(options.servers) ? options.servers : [options.servers];
  try {
    return await connect({
      servers,
      name: options.name ?? "tfgrpo",
      // A worker outlives server restarts: keep reconnecting (the first connect still fails fast).
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
  } catch (error) {
    throw new TfgrpoError(
      "remote_error",
      `cannot connect to NATS at ${servers.join(", ")}: ${(error as Error).message} (is nats-server running, with -js? tfgrpo doctor checks it is installed)`,
      { cause: error, details: { servers } },
    );
  }
}

/**
 * The Bus over NATS: request/reply with queue groups for short calls; JetStream for long jobs (see
 * nats-job-queue.ts). Payloads are JSON, validated with the subject's schemas on both ends, gzip-compressed when
 * large. Errors thrown by handlers travel back as SerializedError and are rethrown as TfgrpoError with their code.
 */
export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const logger = options.logger ?? stderrBusLogger;
  const names = natsNames(options.streamPrefix ?? "TFGRPO");
  const nc = await connectOrExplain(options);
  const connectionName = options.name ?? "tfgrpo";
  let jsm: Awaited<ReturnType<typeof jetstreamManager>>;
  try {
    jsm = await jetstreamManager(nc);
  } catch (error) {
    await nc.close();
    throw new TfgrpoError(
      "invalid_config",
      `NATS at ${nc.getServer()} has no usable JetStream (start nats-server with -js): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const js = jetstream(nc);
  const closeTimeoutMs = options.closeTimeoutMs ?? 30_000;
  const settings = {
    nc,
    connection: watchConnection(nc, logger),
    js,
    jsm,
    names,
    logger,
    ackWaitMs: options.ackWaitMs ?? 30_000,
    maxDeliver: options.maxDeliver ?? 5,
    duplicateWindowMs: options.duplicateWindowMs ?? 10 * 60_000,
    resultsMaxAgeMs: options.resultsMaxAgeMs ?? 7 * 24 * 3600_000,
    heartbeatMs: options.heartbeatMs,
    closeTimeoutMs,
    resultRetryDelayMs: options.resultRetryDelayMs ?? 1000,
    fetchExpiresMs: 5000,
    // The JetStream client's own default.
    publishTimeoutMs: 5000,
    maxPayload: () => nc.info?.max_payload ?? 1024 * 1024,
  };
  const context: NatsQueueContext = { ...settings, ensureStreams: createStreamSetup(settings) };
  const queue = createNatsJobQueue(context);
  const handles = new Set<Handle>();
  let closed = false;

  // A request in flight across a reconnect may have lost its message or its reply (NATS drops what it buffered
  // while disconnected), so it is sent again at the reconnect, with the same request id.
  const connection = context.connection;

  const assertOpen = (subject: Subject<unknown, unknown>) => {
    if (closed) throw new TfgrpoError("bus_closed", `${subject.name}: bus is closed`);
  };

  /** Tracks a handle so bus.close() closes it, and forgets it once closed on its own. */
  const track = (handle: Handle): Handle => {
    const tracked: Handle = {
      async close() {
        handles.delete(tracked);
        await handle.close();
      },
    };
    handles.add(tracked);
    return tracked;
  };

  // Replies by request id, kept while a resend may still come: a request sent again after a reconnect is answered
  // from here instead of running its handler twice.
  const repliesById = new Map<string, Promise<ReplyEnvelope>>();
  const serveRequest = async (
    subject: Subject<unknown, unknown>,
    handler: AnyHandler,
    msg: Msg,
    closing: AbortSignal,
  ): Promise<void> => {
    if (!msg.reply) return;
    const requestId = msg.headers?.get(headerNames.requestId) || null;
    const timeoutMs = Number(msg.headers?.get(headerNames.timeoutMs));
    let pending = requestId === null ? undefined : repliesById.get(requestId);
    if (pending === undefined) {
      pending = answerRequest(subject, handler, msg, closing, timeoutMs);
      if (requestId !== null) {
        repliesById.set(requestId, pending);
        const forget = setTimeout(
          () => repliesById.delete(requestId),
          Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : defaultRequestTimeoutMs,
        );
        forget.unref();
        if (repliesById.size > 10_000) repliesById.delete(repliesById.keys().next().value!);
      }
    }
    const reply = await pending;
    let hdrs = headers();
    let data = await encodePayload(reply, hdrs);
    try {
      checkPayloadSize(`${subject.name} reply`, data, hdrs, context.maxPayload());
    } catch (error) {
      hdrs = headers();
      data = await encodePayload({ ok: false, error: serializeError(error) } satisfies ReplyEnvelope, hdrs);
    }
    msg.respond(data, { headers: hdrs });
  };

  const answerRequest = async (
    subject: Subject<unknown, unknown>,
    handler: AnyHandler,
    msg: Msg,
    closing: AbortSignal,
    timeoutMs: number,
  ): Promise<ReplyEnvelope> => {
    // The handler's work is a child of the caller's span, on whatever machine the caller runs.
    return inSpan(
      `handle ${subject.name}`,
      {
        kind: SpanKind.SERVER,
        parent: contextFromHeaders((name) => msg.headers?.get(name) || undefined),
        attributes: messagingAttributes(subject.name, "process"),
      },
      () => runHandler(subject, handler, msg, closing, timeoutMs),
    );
  };

  const runHandler = async (
    subject: Subject<unknown, unknown>,
    handler: AnyHandler,
    msg: Msg,
    closing: AbortSignal,
    timeoutMs: number,
  ): Promise<ReplyEnvelope> => {
    let reply: ReplyEnvelope;
    try {
      const decoded = await decodePayload(msg.data, msg.headers);
      if (!decoded.success) throw new TfgrpoError("invalid_input", `${subject.name} input: ${decoded.error}`);
      const input = validatePayload(subject, "input", decoded.value);
      // The caller gives up after its timeout: so does the handler's signal, to stop wasted work.
      const signal =
        Number.isFinite(timeoutMs) && timeoutMs > 0
          ? AbortSignal.any([closing, AbortSignal.timeout(timeoutMs)])
          : closing;
      const caller = msg.headers?.get(headerNames.caller) || undefined;
      const output = await handler(input, { signal, ...(caller === undefined ? {} : { caller }) });
      reply = { ok: true, output: validatePayload(subject, "output", output) };
    } catch (error) {
      reply = { ok: false, error: serializeError(error) };
    }
    return reply;
  };

  const sendRequest = async <I, O>(subject: Subject<I, O>, input: I, options: RequestOptions): Promise<O> => {
    const any = subject as Subject<unknown, unknown>;
    assertOpen(any);
    const valid = validatePayload(any, "input", input);
    const timeoutMs = options.timeoutMs ?? defaultRequestTimeoutMs;
    const hdrs = headers();
    const data = await encodePayload(valid, hdrs);
    hdrs.set(headerNames.timeoutMs, String(timeoutMs));
    hdrs.set(headerNames.requestId, randomUUID());
    hdrs.set(headerNames.caller, `${connectionName}#${nc.info?.client_id ?? "?"}`);
    for (const [name, value] of Object.entries(traceHeaders())) hdrs.set(name, value);
    checkPayloadSize(`${subject.name} request`, data, hdrs, context.maxPayload());
    options.signal?.throwIfAborted();
    let msg: Msg | undefined;
    let onAbort: (() => void) | undefined;
    const deadline = Date.now() + timeoutMs;
    try {
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(options.signal?.reason);
        options.signal?.addEventListener("abort", onAbort, { once: true });
      });
      while (msg === undefined) {
        const reconnected = connection.nextReconnect().then(() => "resend" as const);
        const call = nc.request(names.requestSubject(any), data, {
          timeout: Math.max(1, deadline - Date.now()),
          headers: hdrs,
        });
        let outcome: Msg | "resend";
        try {
          outcome = await (options.signal
            ? Promise.race([call, reconnected, aborted])
            : Promise.race([call, reconnected]));
        } catch (error) {
          // Right after a reconnect the handlers may not have subscribed again yet: "no responders" then means
          // "not yet", so wait a moment and send again while the caller's time lasts.
          const settling =
            !connection.connected || Date.now() - connection.lastReconnectAt < reconnectSettleMs;
          if (!isNoResponders(error) || !settling || Date.now() + 250 >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
          continue;
        }
        if (outcome === "resend") {
          // The old call may still settle (a late reply, or its timeout): nobody waits for it any more.
          call.catch(() => undefined);
          logger.info?.(`${subject.name}: sent again after a reconnect (same request id)`);
          continue;
        }
        msg = outcome;
      }
    } catch (error) {
      if (options.signal?.aborted && error === options.signal.reason) throw error;
      throw toBusError(error, subject.name, timeoutMs);
    } finally {
      if (onAbort) options.signal?.removeEventListener("abort", onAbort);
    }
    const decoded = await decodePayload(msg.data, msg.headers);
    const envelope = decoded.success ? replyEnvelopeSchema.safeParse(decoded.value) : undefined;
    if (!envelope?.success) {
      throw new TfgrpoError("remote_error", `${subject.name}: unreadable reply from the handler`, {
        details: { subject: subject.name },
      });
    }
    if (!envelope.data.ok) throw TfgrpoError.fromJSON(envelope.data.error);
    return validatePayload(any, "output", envelope.data.output) as O;
  };

  return {
    kind: "nats",

    request<I, O>(subject: Subject<I, O>, input: I, options: RequestOptions = {}): Promise<O> {
      return inSpan(
        `request ${subject.name}`,
        { kind: SpanKind.CLIENT, attributes: messagingAttributes(subject.name, "send") },
        () => sendRequest(subject, input, options),
      );
    },

    async handle<I, O>(
      subject: Subject<I, O>,
      handler: (input: I, context: HandlerContext) => Promise<O>,
      options: WorkOptions = {},
    ): Promise<Handle> {
      const any = subject as Subject<unknown, unknown>;
      assertOpen(any);
      // Requests beyond the concurrency wait here; the caller's timeout still bounds them.
      const limiter = createConcurrencyLimiter(options.concurrency ?? 64);
      const controller = new AbortController();
      // Every request in flight (up to the concurrency) is handed this signal: no listener limit applies.
      setMaxListeners(0, controller.signal);
      const inFlight = new Set<Promise<void>>();
      const subscription = nc.subscribe(names.requestSubject(any), {
        queue: names.queueGroup(any),
        callback: (error, msg) => {
          if (error) {
            logger.error(`${subject.name} handler subscription: ${error.message}`);
            return;
          }
          const done = limiter
            .run(() => serveRequest(any, handler as AnyHandler, msg, controller.signal))
            .catch((failure: unknown) => logger.error(`${subject.name}: could not reply: ${String(failure)}`))
            .finally(() => inFlight.delete(done));
          inFlight.add(done);
        },
      });
      // The subscription must be known to the server before a caller on another connection can reach it.
      await nc.flush();
      return track({
        async close() {
          await subscription.drain().catch(() => undefined);
          const settled = Promise.allSettled([...inFlight]);
          await timedOut(settled, closeTimeoutMs);
          controller.abort(new TfgrpoError("bus_closed", `${subject.name} handler is shutting down`));
        },
      });
    },

    async enqueue(subject, jobs, options) {
      assertOpen(subject as Subject<unknown, unknown>);
      await queue.enqueue(subject as Subject<unknown, unknown>, jobs, options.replyTo);
    },

    async work<I, O>(
      subject: Subject<I, O>,
      handler: (input: I, context: JobContext) => Promise<O>,
      options: WorkOptions = {},
    ): Promise<Handle> {
      assertOpen(subject as Subject<unknown, unknown>);
      const handle = await queue.work(
        subject as Subject<unknown, unknown>,
        handler as (input: unknown, context: JobContext) => Promise<unknown>,
        options,
      );
      return track(handle);
    },

    async consumeResults<I, O>(
      subject: Subject<I, O>,
      replyTo: string,
      onResult: (result: JobResult<O>) => Promise<void>,
    ): Promise<Handle> {
      assertOpen(subject as Subject<unknown, unknown>);
      const handle = await queue.consumeResults(
        subject as Subject<unknown, unknown>,
        replyTo,
        onResult as (result: JobResult<unknown>) => Promise<void>,
      );
      return track(handle);
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...handles].map((handle) => handle.close()));
      if (!nc.isClosed()) {
        // Drain flushes the acks and results still buffered; pointless (and slow) when the server is gone.
        if (connection.connected)
          await timedOut(
            nc.drain().catch(() => undefined),
            5000,
          );
        if (!nc.isClosed()) await nc.close();
      }
    },
  };
}

function messagingAttributes(subject: string, operation: "send" | "process") {
  return {
    [spanAttributes.messagingSystem]: "nats",
    [spanAttributes.messagingDestination]: subject,
    [spanAttributes.messagingOperation]: operation,
  };
}
