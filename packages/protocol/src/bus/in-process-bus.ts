import { AsyncResource } from "node:async_hooks";
import { setMaxListeners } from "node:events";
import { serializeError, TfgrpoError } from "../errors.js";
import { spanAttributes } from "../tracing/span-attributes.js";
import { contextFromHeaders, inSpan, SpanKind, traceHeaders } from "../tracing/tracer.js";
import type {
  Bus,
  Handle,
  HandlerContext,
  Job,
  JobContext,
  JobResult,
  RequestOptions,
  WorkOptions,
} from "./bus.js";
import type { Subject } from "./subject.js";
import { validatePayload } from "./validate-payload.js";

const defaultTimeoutMs = 10 * 60_000;

type AnyHandler = (input: unknown, context: HandlerContext) => Promise<unknown>;
type AnyWorker = (input: unknown, context: JobContext) => Promise<unknown>;

interface Worker {
  run: AnyWorker;
  concurrency: number;
  inFlight: number;
  closed: boolean;
}

interface QueueState {
  /** `trace`: the enqueuer's trace context, passed explicitly as NATS headers would carry it. */
  pending: { job: Job<unknown>; replyTo: string; trace: Record<string, string> }[];
  workers: Worker[];
  nextWorker: number;
  /** Job ids ever enqueued: enqueueing an id again is a no-op, as NATS dedupe would make it. */
  known: Set<string>;
  results: Map<string, JobResult<unknown>[]>;
  consumers: Map<string, (result: JobResult<unknown>) => Promise<void>>;
}

/** The embedded Bus: one process does everything, with the same validation and queue semantics as NATS. */
export function createInProcessBus(options: { resultRetryDelayMs?: number } = {}): Bus {
  const resultRetryDelayMs = options.resultRetryDelayMs ?? 100;
  const timers = new Set<NodeJS.Timeout>();
  const handlers = new Map<
    string,
    { run: AnyHandler; concurrency: number; inFlight: number; waiting: (() => void)[] }[]
  >();
  const queues = new Map<string, QueueState>();
  // Handlers run in the async context the Bus was created in, not the caller's, as they would in another process:
  // a caller's AsyncLocalStorage state (e.g. the LangGraph run config of the node that dispatched a rollout) must
  // not leak into the role, where a nested graph would take it for its parent's and share its checkpoints.
  const isolation = new AsyncResource("tfgrpo-in-process-bus");
  const isolated = <T>(fn: () => Promise<T>): Promise<T> => isolation.runInAsyncScope(fn);
  const controller = new AbortController();
  // Every job of the process shares this signal, and each may listen to it: no listener limit applies.
  setMaxListeners(0, controller.signal);
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    promise.then(
      () => inFlight.delete(promise),
      () => inFlight.delete(promise),
    );
    return promise;
  };

  const queue = (name: string): QueueState => {
    let state = queues.get(name);
    if (!state) {
      state = {
        pending: [],
        workers: [],
        nextWorker: 0,
        known: new Set(),
        results: new Map(),
        consumers: new Map(),
      };
      queues.set(name, state);
    }
    return state;
  };

  const deliver = (state: QueueState, replyTo: string, result: JobResult<unknown>) => {
    const consumer = state.consumers.get(replyTo);
    if (consumer) {
      void track(isolated(() => consumer(result)).catch(() => redeliverLater(state, replyTo, result)));
    } else {
      const list = state.results.get(replyTo) ?? [];
      list.push(result);
      state.results.set(replyTo, list);
    }
  };

  // Like a NATS nak with a delay: a result whose onResult threw comes back (to whoever consumes that replyTo then).
  const redeliverLater = (state: QueueState, replyTo: string, result: JobResult<unknown>) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      deliver(state, replyTo, result);
    }, resultRetryDelayMs);
    timers.add(timer);
  };

  const pump = (subject: Subject<unknown, unknown>) => {
    const state = queue(subject.name);
    while (state.pending.length > 0) {
      const live = state.workers.filter((w) => !w.closed && w.inFlight < w.concurrency);
      if (live.length === 0) return;
      const worker = live[state.nextWorker++ % live.length]!;
      const { job, replyTo, trace } = state.pending.shift()!;
      worker.inFlight++;
      const context: JobContext = { jobId: job.id, attempt: 1, working: () => {}, signal: controller.signal };
      const run = (async (): Promise<JobResult<unknown>> => {
        try {
          const output = validatePayload(
            subject,
            "output",
            await isolated(() =>
              inSpan(
                `job ${subject.name}`,
                {
                  kind: SpanKind.CONSUMER,
                  parent: contextFromHeaders((name) => trace[name]),
                  attributes: {
                    [spanAttributes.messagingSystem]: "in-process",
                    [spanAttributes.messagingDestination]: subject.name,
                    [spanAttributes.messagingMessageId]: job.id,
                    [spanAttributes.attempt]: 1,
                  },
                },
                () => worker.run(job.input, context),
              ),
            ),
          );
          return { jobId: job.id, ok: true, output, attempt: 1 };
        } catch (error) {
          return { jobId: job.id, ok: false, error: serializeError(error), attempt: 1 };
        }
      })();
      void track(
        run.then((result) => {
          worker.inFlight--;
          deliver(state, replyTo, result);
          pump(subject);
        }),
      );
    }
  };

  const sendRequest = async <I, O>(subject: Subject<I, O>, input: I, options: RequestOptions): Promise<O> => {
    if (closed) throw new TfgrpoError("bus_closed", `${subject.name}: bus is closed`);
    const list = handlers.get(subject.name);
    if (!list || list.length === 0) {
      throw new TfgrpoError("not_found", `${subject.name}: no handler is serving this subject`);
    }
    const valid = validatePayload(subject as Subject<unknown, unknown>, "input", input);
    const entry = list.reduce((best, h) => (h.inFlight < best.inFlight ? h : best));
    if (entry.inFlight >= entry.concurrency)
      await new Promise<void>((resolve) => entry.waiting.push(resolve));
    entry.inFlight++;
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    const local = new AbortController();
    const abortFromCaller = () => local.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", abortFromCaller, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const trace = traceHeaders();
      const call = isolated(() =>
        inSpan(
          `handle ${subject.name}`,
          { kind: SpanKind.SERVER, parent: contextFromHeaders((name) => trace[name]) },
          () => entry.run(structuredClone(valid), { signal: local.signal }),
        ),
      );
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Reject before aborting: a handler that rejects on abort must not win the race with its own error.
          reject(new TfgrpoError("bus_timeout", `${subject.name}: no reply within ${timeoutMs} ms`));
          local.abort();
        }, timeoutMs);
      });
      const output = await track(Promise.race([call, timeout]));
      return validatePayload(subject as Subject<unknown, unknown>, "output", structuredClone(output)) as O;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abortFromCaller);
      entry.inFlight--;
      entry.waiting.shift()?.();
    }
  };

  const serveRequests = async <I, O>(
    subject: Subject<I, O>,
    handler: (input: I, context: HandlerContext) => Promise<O>,
    options: WorkOptions = {},
  ): Promise<Handle> => {
    const entry = {
      run: handler as AnyHandler,
      concurrency: options.concurrency ?? 64,
      inFlight: 0,
      waiting: [],
    };
    const list = handlers.get(subject.name) ?? [];
    list.push(entry);
    handlers.set(subject.name, list);
    return {
      async close() {
        const current = handlers.get(subject.name) ?? [];
        handlers.set(
          subject.name,
          current.filter((h) => h !== entry),
        );
      },
    };
  };

  return {
    kind: "in-process",

    request<I, O>(subject: Subject<I, O>, input: I, options: RequestOptions = {}): Promise<O> {
      return inSpan(
        `request ${subject.name}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [spanAttributes.messagingSystem]: "in-process",
            [spanAttributes.messagingDestination]: subject.name,
          },
        },
        () => sendRequest(subject, input, options),
      );
    },

    handle: serveRequests,

    async enqueue<I, O>(subject: Subject<I, O>, jobs: readonly Job<I>[], options: { replyTo: string }) {
      if (closed) throw new TfgrpoError("bus_closed", `${subject.name}: bus is closed`);
      const state = queue(subject.name);
      const trace = traceHeaders();
      for (const job of jobs) {
        if (state.known.has(job.id)) continue;
        const input = validatePayload(subject as Subject<unknown, unknown>, "input", job.input);
        state.known.add(job.id);
        state.pending.push({
          job: { id: job.id, input: structuredClone(input) },
          replyTo: options.replyTo,
          trace,
        });
      }
      pump(subject as Subject<unknown, unknown>);
    },

    async work<I, O>(
      subject: Subject<I, O>,
      handler: (input: I, context: JobContext) => Promise<O>,
      options: WorkOptions = {},
    ): Promise<Handle> {
      const state = queue(subject.name);
      const worker: Worker = {
        run: handler as AnyWorker,
        concurrency: options.concurrency ?? 8,
        inFlight: 0,
        closed: false,
      };
      state.workers.push(worker);
      pump(subject as Subject<unknown, unknown>);
      return {
        async close() {
          worker.closed = true;
          state.workers = state.workers.filter((w) => w !== worker);
          while (worker.inFlight > 0)
            await Promise.race([...inFlight, new Promise((r) => setTimeout(r, 10))]);
        },
      };
    },

    async consumeResults<I, O>(
      subject: Subject<I, O>,
      replyTo: string,
      onResult: (result: JobResult<O>) => Promise<void>,
    ): Promise<Handle> {
      const state = queue(subject.name);
      const consumer = onResult as (result: JobResult<unknown>) => Promise<void>;
      state.consumers.set(replyTo, consumer);
      const backlog = state.results.get(replyTo) ?? [];
      state.results.delete(replyTo);
      for (const result of backlog) deliver(state, replyTo, result);
      return {
        async close() {
          if (state.consumers.get(replyTo) === consumer) state.consumers.delete(replyTo);
        },
      };
    },

    async close() {
      closed = true;
      controller.abort();
      for (const timer of timers) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
