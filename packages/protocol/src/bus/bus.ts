import type { SerializedError } from "../errors.js";
import type { Subject } from "./subject.js";

export interface RequestOptions {
  /** Give up waiting after this long (default 10 minutes: a role call is a model call or several). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HandlerContext {
  signal: AbortSignal;
  /**
   * Which connection sent a request (over NATS: the sender's connection name and client id), for per-caller limits;
   * absent in process. Says who is connected, not who they are: a client token does that.
   */
  caller?: string;
}

export interface JobContext extends HandlerContext {
  jobId: string;
  /** 1 on first delivery, 2+ when redelivered after a worker died or timed out. */
  attempt: number;
  /** Heartbeat for long jobs: tells the queue the job is still being worked on, so it is not redelivered. */
  working(): void;
}

export interface Job<I> {
  /** Also the dedupe id: enqueueing the same id twice runs it once, and its result is delivered once. */
  id: string;
  input: I;
}

export type JobResult<O> =
  | { jobId: string; ok: true; output: O; attempt: number }
  | { jobId: string; ok: false; error: SerializedError; attempt: number };

export interface EnqueueOptions {
  /** Who gets the results: usually the run id. Results wait (durably, over NATS) until that consumer reads them. */
  replyTo: string;
}

export interface WorkOptions {
  /** Jobs this worker runs at once. */
  concurrency?: number;
}

export interface Handle {
  /** Stop taking new work, wait for what is in flight, then release. */
  close(): Promise<void>;
}

/**
 * How roles talk. The in-process Bus is the default; the NATS Bus carries the same calls across machines.
 * - request/handle: short calls, request/reply with a queue group (any one handler answers).
 * - enqueue/work/consumeResults: long jobs on a durable work queue: acked only after the result is published,
 *   redelivered if a worker dies, deduplicated by job id.
 */
export interface Bus {
  readonly kind: "in-process" | "nats";
  request<I, O>(subject: Subject<I, O>, input: I, options?: RequestOptions): Promise<O>;
  handle<I, O>(
    subject: Subject<I, O>,
    handler: (input: I, context: HandlerContext) => Promise<O>,
    options?: WorkOptions,
  ): Promise<Handle>;
  enqueue<I, O>(subject: Subject<I, O>, jobs: readonly Job<I>[], options: EnqueueOptions): Promise<void>;
  work<I, O>(
    subject: Subject<I, O>,
    handler: (input: I, context: JobContext) => Promise<O>,
    options?: WorkOptions,
  ): Promise<Handle>;
  /**
   * Delivers results of jobs enqueued with this `replyTo`. A result is acknowledged only after `onResult` resolves,
   * so a consumer that crashes while storing a result gets it again; `onResult` must be idempotent by job id.
   */
  consumeResults<I, O>(
    subject: Subject<I, O>,
    replyTo: string,
    onResult: (result: JobResult<O>) => Promise<void>,
  ): Promise<Handle>;
  close(): Promise<void>;
}
