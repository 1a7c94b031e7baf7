import type { Bus } from "../bus/bus.js";

/** One message the Bus carried: its subject, which way it went, and its JSON size in bytes. */
export interface RecordedMessage {
  subject: string;
  kind: "request" | "reply" | "job" | "result";
  bytes: number;
}

export interface RecordingBus extends Bus {
  /** Every message so far, in the order sent. */
  readonly messages: readonly RecordedMessage[];
  /** The largest message of each subject and kind (`tfgrpo.curator.consolidate request`), in bytes. */
  largest(): Map<string, number>;
}

const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/**
 * A Bus that records the size of every message a caller sends and receives through it (requests and their replies,
 * enqueued jobs and their results) and otherwise is the Bus it wraps: for tests that bound what a message may carry.
 * Sizes are of the JSON the NATS Bus sends before compression.
 */
export function createRecordingBus(inner: Bus): RecordingBus {
  const messages: RecordedMessage[] = [];
  const record = (subject: string, kind: RecordedMessage["kind"], value: unknown) =>
    messages.push({ subject, kind, bytes: sizeOf(value) });
  return {
    kind: inner.kind,
    messages,
    largest() {
      const largest = new Map<string, number>();
      for (const { subject, kind, bytes } of messages) {
        const key = `${subject} ${kind}`;
        largest.set(key, Math.max(largest.get(key) ?? 0, bytes));
      }
      return largest;
    },
    async request(subject, input, options) {
      record(subject.name, "request", input);
      const output = await inner.request(subject, input, options);
      record(subject.name, "reply", output);
      return output;
    },
    handle: (subject, handler, options) => inner.handle(subject, handler, options),
    async enqueue(subject, jobs, options) {
      for (const job of jobs) record(subject.name, "job", job);
      return inner.enqueue(subject, jobs, options);
    },
    work: (subject, handler, options) => inner.work(subject, handler, options),
    consumeResults: (subject, replyTo, onResult) =>
      inner.consumeResults(subject, replyTo, async (result) => {
        record(subject.name, "result", result);
        return onResult(result);
      }),
    close: () => inner.close(),
  };
}
