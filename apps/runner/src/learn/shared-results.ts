import type { Bus, Handle, JobResult, Subject } from "@tfgrpo/protocol";

/** A runJobs call waiting on some of the results that come back to one `replyTo`. */
export interface ResultWaiter<O> {
  /** The job ids it still waits for. */
  pending: ReadonlySet<string>;
  /** Stores a result (its own, or one nobody waits for: an earlier phase's duplicate). */
  onResult(result: JobResult<O>): Promise<void>;
}

interface Consumer {
  waiters: Set<ResultWaiter<unknown>>;
  opened: Promise<Handle>;
  /** Set once the last waiter left: the consumer is closing, a new waiter opens the next one after it. */
  closing?: Promise<void>;
}

const consumers = new WeakMap<Bus, Map<string, Consumer>>();

/**
 * Registers a waiter on the one results consumer of (`bus`, `subject`, `replyTo`), opening it if none is open; the
 * returned release closes it when the last waiter leaves. A Bus keeps one consumer per `replyTo` (the in-process
 * Bus replaces an earlier one, a NATS durable splits results between two), so validation rounds in flight at once
 * in one run share a consumer: each result goes to every waiter whose pending set holds its job id (a job id two
 * calls sent is run once by the Bus, and both wait for it), or, when none does, to the latest waiter (it is stored,
 * not counted).
 */
export async function waitForResults<O>(
  bus: Bus,
  subject: Subject<unknown, O>,
  replyTo: string,
  waiter: ResultWaiter<O>,
): Promise<() => Promise<void>> {
  const byKey = consumers.get(bus) ?? new Map<string, Consumer>();
  consumers.set(bus, byKey);
  const key = `${subject.name}\u0000${replyTo}`;
  let consumer = byKey.get(key);
  while (consumer?.closing) {
    await consumer.closing;
    consumer = byKey.get(key);
  }
  const entry = waiter as ResultWaiter<unknown>;
  if (!consumer) {
    const created: Consumer = { waiters: new Set([entry]), opened: undefined as unknown as Promise<Handle> };
    created.opened = bus.consumeResults(subject, replyTo, async (result) => {
      const waiters = [...created.waiters];
      const owners = waiters.filter((w) => w.pending.has(result.jobId));
      const latest = waiters.at(-1);
      for (const owner of owners.length > 0 ? owners : latest ? [latest] : [])
        await owner.onResult(result as JobResult<unknown>);
    });
    byKey.set(key, created);
    consumer = created;
    try {
      await created.opened;
    } catch (error) {
      if (byKey.get(key) === created) byKey.delete(key);
      throw error;
    }
  } else {
    consumer.waiters.add(entry);
    await consumer.opened;
  }
  const mine = consumer;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    mine.waiters.delete(entry);
    if (mine.waiters.size > 0) return;
    mine.closing = (async () => {
      try {
        await (await mine.opened).close();
      } finally {
        if (byKey.get(key) === mine) byKey.delete(key);
      }
    })();
    await mine.closing;
  };
}
