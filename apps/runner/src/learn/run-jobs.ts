import type { Bus, Job, JobResult, Subject } from "@tfgrpo/protocol";
import { TfgrpoError } from "@tfgrpo/protocol";
import { waitForResults } from "./shared-results.js";

export interface RunJobsOptions<I, O> {
  bus: Bus;
  subject: Subject<I, O>;
  /** Results come back to this consumer (the run id): over NATS they wait durably, so a resumed run still gets them. */
  replyTo: string;
  jobs: readonly Job<I>[];
  /** Jobs already finished in an earlier attempt of this phase (e.g. before a crash): not sent again. */
  isDone: (jobId: string) => Promise<boolean>;
  /** Stores one result; must be idempotent by job id (a result may be delivered twice). */
  onResult: (result: JobResult<O>) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Give up if no result at all arrives for this long (no workers?). Default 10 minutes. */
  idleTimeoutMs?: number;
}

/**
 * Fans jobs out through the Bus work queue and waits until every one has a stored result. One graph node dispatches
 * thousands of rollouts this way instead of one graph task each (a LangGraph Send costs ~0.4 ms per task). Calls in
 * flight at once with the same `replyTo` share one results consumer (`waitForResults`).
 */
export async function runJobs<I, O>(options: RunJobsOptions<I, O>): Promise<void> {
  const { bus, subject, replyTo, jobs, onResult, onProgress, signal } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const pending = new Set<string>();
  for (const job of jobs) if (!(await options.isDone(job.id))) pending.add(job.id);
  const total = jobs.length;
  let done = total - pending.size;
  onProgress?.(done, total);
  if (pending.size === 0) return;

  let lastResultAt = Date.now();
  let failure: unknown = null;
  let wake: (() => void) | null = null as (() => void) | null;
  // The run's one consumer of its results, shared with runJobs calls in flight beside this one (validation rounds).
  const release = await waitForResults(bus, subject as Subject<unknown, O>, replyTo, {
    pending,
    onResult: async (result) => {
      // Results of jobs this phase did not ask for (an earlier phase's duplicates) are stored too, but not counted.
      try {
        await onResult(result);
      } catch (error) {
        // A full disk or a read-only database does not heal by retrying: the result is acknowledged (not redelivered
        // forever), the phase stops with the storage error, and a resumed run redoes the job (it was never stored).
        if (TfgrpoError.hasCode(error, "storage_error")) {
          failure ??= error;
          wake?.();
          return;
        }
        throw error;
      }
      lastResultAt = Date.now();
      if (pending.delete(result.jobId)) {
        done++;
        onProgress?.(done, total);
        if (pending.size === 0) wake?.();
      }
    },
  });
  try {
    await bus.enqueue(
      subject,
      jobs.filter((job) => pending.has(job.id)),
      { replyTo },
    );
    while (pending.size > 0) {
      if (signal?.aborted) throw signal.reason ?? new TfgrpoError("internal", "stopped");
      if (failure) throw failure;
      if (Date.now() - lastResultAt > idleTimeoutMs) {
        throw new TfgrpoError(
          "bus_timeout",
          `${subject.name}: no result for ${Math.round(idleTimeoutMs / 1000)} s with ${pending.size} job(s) pending — are workers running?`,
          { details: { pending: [...pending].slice(0, 10) } },
        );
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 250);
      });
      wake = null;
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    await release();
  }
}
