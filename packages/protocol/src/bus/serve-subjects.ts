import { type SerializedError, serializeError } from "../errors.js";
import type { Bus, Handle, HandlerContext, JobContext } from "./bus.js";
import type { Subject } from "./subject.js";

/**
 * One subject a role serves. `mode: "request"` answers short calls (request/reply, any one handler of the queue
 * group answers); `mode: "job"` works long jobs from the durable queue (heartbeats, redelivery, results by replyTo).
 * Handlers are declared as methods so a list can mix subjects of different types (`ServedSubject[]`).
 */
export type ServedSubject<I = unknown, O = unknown> =
  | {
      subject: Subject<I, O>;
      mode: "request";
      handler(input: I, context: HandlerContext): Promise<O>;
      /** Calls or jobs this process runs at once on this subject (default: the Bus's default). */
      concurrency?: number;
    }
  | {
      subject: Subject<I, O>;
      mode: "job";
      handler(input: I, context: JobContext): Promise<O>;
      concurrency?: number;
    };

/** Types a ServedSubject against its subject, then widens it so it fits a mixed list. */
export function defineServedSubject<I, O>(served: ServedSubject<I, O>): ServedSubject {
  return served as unknown as ServedSubject;
}

export type ServeEvent =
  | { type: "job-start"; subject: string; mode: "request" | "job"; jobId?: string; attempt?: number }
  | {
      type: "job-end";
      subject: string;
      mode: "request" | "job";
      jobId?: string;
      attempt?: number;
      ok: boolean;
      durationMs: number;
      error?: SerializedError;
    };

export interface ServeSubjectsOptions {
  /** Told when each call or job starts and ends (for logs and progress); must not throw. */
  onEvent?: (event: ServeEvent) => void;
  /** Overrides every subject's concurrency (e.g. `tfgrpo serve --concurrency N`). */
  concurrency?: number;
  now?: () => number;
}

/**
 * Puts a role's handlers on the Bus. The returned Handle's close() stops taking work on every subject and waits
 * for what is in flight (bounded by the Bus), so a worker shuts down without losing a job.
 */
export async function serveSubjects(
  bus: Bus,
  subjects: readonly ServedSubject[],
  options: ServeSubjectsOptions = {},
): Promise<Handle> {
  const now = options.now ?? Date.now;
  const emit = (event: ServeEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // Reporting must never fail a job.
    }
  };
  const track = async <T>(
    base: { subject: string; mode: "request" | "job"; jobId?: string; attempt?: number },
    run: () => Promise<T>,
  ): Promise<T> => {
    const started = now();
    emit({ type: "job-start", ...base });
    try {
      const output = await run();
      emit({ type: "job-end", ...base, ok: true, durationMs: now() - started });
      return output;
    } catch (error) {
      emit({
        type: "job-end",
        ...base,
        ok: false,
        durationMs: now() - started,
        error: serializeError(error),
      });
      throw error;
    }
  };

  const handles: Handle[] = [];
  try {
    for (const served of subjects) {
      const concurrency = options.concurrency ?? served.concurrency;
      const workOptions = concurrency === undefined ? {} : { concurrency };
      const name = served.subject.name;
      if (served.mode === "request") {
        handles.push(
          await bus.handle(
            served.subject,
            (input, context) =>
              track({ subject: name, mode: "request" }, () => served.handler(input, context)),
            workOptions,
          ),
        );
      } else {
        handles.push(
          await bus.work(
            served.subject,
            (input, context) =>
              track({ subject: name, mode: "job", jobId: context.jobId, attempt: context.attempt }, () =>
                served.handler(input, context),
              ),
            workOptions,
          ),
        );
      }
    }
  } catch (error) {
    // Half a role is worse than none: release what was started.
    await Promise.allSettled(handles.map((handle) => handle.close()));
    throw error;
  }
  return {
    async close() {
      await Promise.allSettled(handles.map((handle) => handle.close()));
    },
  };
}
