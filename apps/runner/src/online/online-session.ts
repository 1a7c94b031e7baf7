import type { Task } from "@tfgrpo/protocol";
import type {
  GetExperiencesReply,
  LibraryService,
  OnlineEvent,
  OnlineLearner,
  OnlineOutcome,
} from "@tfgrpo/serving";

/** What an agent reports after serving one task with the experiences it was given. */
export interface ServedResult {
  reward: number;
  success: boolean;
  feedback?: string;
  /** The agent's trajectory (stored with the outcome; the learner summarizes it when it reflects). */
  trajectory?: unknown;
  summary?: string;
}

/** Any agent: gets the task and the served selection (with its prompt block), returns how it went. */
export type ServeTask = (task: Task, served: GetExperiencesReply, index: number) => Promise<ServedResult>;

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
  service: LibraryService;
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
}

/**
 * A serving-and-learning session: each task gets experiences from the library service (the learner's router picks
 * head or canary), the agent serves it, its outcome is reported to the service (stored exactly once, credited) and
 * observed by the learner (trigger, reflection, canary gate, rollback). Serving never waits for a reflection except
 * the one worker that reported the outcome that triggered it.
 */
export async function runOnlineSession(options: RunOnlineSessionOptions): Promise<OnlineSessionResult> {
  const { service, learner, domain } = options;
  const served: ServedRecord[] = [];
  const iterator =
    Symbol.asyncIterator in options.tasks
      ? (options.tasks as AsyncIterable<Task>)[Symbol.asyncIterator]()
      : (options.tasks as Iterable<Task>)[Symbol.iterator]();
  let next = 0;
  let done = false;
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
      const reply = await service.getExperiences({ domain, task: task.question });
      const result = await options.serve(task, reply, index);
      await service.reportOutcome({
        selectionId: reply.selectionId,
        reward: result.reward,
        success: result.success,
        ...(result.feedback ? { feedback: result.feedback } : {}),
        ...(result.summary ? { summary: result.summary } : {}),
        ...(result.trajectory !== undefined ? { trajectory: result.trajectory } : {}),
      });
      const outcome: OnlineOutcome = {
        selectionId: reply.selectionId,
        domain,
        version: reply.version,
        task: task.question,
        reward: result.reward,
        success: result.success,
        summary: result.summary ?? null,
        feedback: result.feedback ?? null,
        ...(result.trajectory !== undefined ? { trajectory: result.trajectory } : {}),
      };
      const events = await learner.observe(outcome);
      const family = typeof task.meta?.family === "string" ? task.meta.family : null;
      served.push({
        index,
        taskId: task.id,
        family,
        version: reply.version,
        success: result.success,
        reward: result.reward,
      });
      options.onProgress?.({ index, task, version: reply.version, success: result.success, events });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  served.sort((a, b) => a.index - b.index);
  return { served, events: [...learner.events] };
}
