import { type Task, TfgrpoError } from "@tfgrpo/protocol";
import type { OnlineEvent, OnlineLearner, OnlineOutcome } from "@tfgrpo/serving";

/** How serving one task went, after the agent reported its outcome to the library service. */
export interface ServedResult {
  /** The selection the agent was served (and reported the outcome of). */
  selectionId: string;
  /** The library version that served it. */
  version: number | null;
  reward: number;
  success: boolean;
  feedback?: string;
  /** The trajectory the agent reported (the learner summarizes it when it reflects). */
  trajectory?: unknown;
  summary?: string;
}

/**
 * Any agent: gets experiences from the library service for the task (e.g. through `@tfgrpo/langgraph`'s prompt
 * hook), serves it, reports the outcome (the outcome hook), and says how it went.
 */
export type ServeTask = (task: Task, index: number) => Promise<ServedResult>;

export interface OnlineProgress {
  index: number;
  task: Task;
  version: number | null;
  success: boolean;
  events: OnlineEvent[];
}

export interface RunOnlineSessionOptions {
  domain: string;
  tasks: AsyncIterable<Task> | Iterable<Task>;
  learner: OnlineLearner;
  serve: ServeTask;
  /** Tasks served at once (default 1: a reproducible order of outcomes). */
  concurrency?: number;
  onProgress?: (progress: OnlineProgress) => void;
  signal?: AbortSignal;
}

export interface ServedRecord {
  index: number;
  taskId: string;
  family: string | null;
  version: number | null;
  success: boolean;
  reward: number;
}

export interface OnlineSessionResult {
  served: ServedRecord[];
  events: OnlineEvent[];
  /** Why serving stopped before the stream ended, if it did. */
  stopped: "budget" | null;
}

/**
 * A serving-and-learning session: the agent serves each task with experiences from the library service (whose
 * router is the learner's canary draw) and reports its outcome there (stored exactly once, credited); the learner
 * then observes it (trigger, reflection, canary test, rollback). Serving never waits for a reflection except the
 * one worker whose outcome triggered it. At the end the learner decides a canary still out (`finish`).
 */
export async function runOnlineSession(options: RunOnlineSessionOptions): Promise<OnlineSessionResult> {
  const { learner, domain } = options;
  const served: ServedRecord[] = [];
  const iterator =
    Symbol.asyncIterator in options.tasks
      ? (options.tasks as AsyncIterable<Task>)[Symbol.asyncIterator]()
      : (options.tasks as Iterable<Task>)[Symbol.iterator]();
  let next = 0;
  let done = false;
  let stopped: OnlineSessionResult["stopped"] = null;
  const take = async (): Promise<{ task: Task; index: number } | null> => {
    if (done || options.signal?.aborted) return null;
    const item = await iterator.next();
    if (item.done) {
      done = true;
      return null;
    }
    return { task: item.value, index: next++ };
  };

  const worker = async () => {
    for (let item = await take(); item !== null; item = await take()) {
      const { task, index } = item;
      let result: ServedResult;
      try {
        result = await options.serve(task, index);
      } catch (error) {
        // The USD budget is spent: stop serving cleanly (tasks in flight end the same way), keep what was learned.
        if (!TfgrpoError.hasCode(error, "budget_exceeded")) throw error;
        done = true;
        stopped = "budget";
        return;
      }
      const outcome: OnlineOutcome = {
        selectionId: result.selectionId,
        domain,
        version: result.version,
        task: task.question,
        reward: result.reward,
        success: result.success,
        summary: result.summary ?? null,
        feedback: result.feedback ?? null,
        ...(result.trajectory !== undefined ? { trajectory: result.trajectory } : {}),
      };
      let events: OnlineEvent[] = [];
      try {
        events = await learner.observe(outcome);
      } catch (error) {
        // A reflection that hits the budget: the outcome is stored and counted; serving stops as above.
        if (!TfgrpoError.hasCode(error, "budget_exceeded")) throw error;
        done = true;
        stopped = "budget";
      }
      const family = typeof task.meta?.family === "string" ? task.meta.family : null;
      served.push({
        index,
        taskId: task.id,
        family,
        version: result.version,
        success: result.success,
        reward: result.reward,
      });
      options.onProgress?.({ index, task, version: result.version, success: result.success, events });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  // The session ends with every version decided: a canary the sequential test has not settled yet is decided
  // inconclusive with its evidence (an in-process session has no successor to resume it).
  await learner.finish();
  served.sort((a, b) => a.index - b.index);
  return { served, events: [...learner.events], stopped };
}
