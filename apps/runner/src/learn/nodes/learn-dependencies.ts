import type { Bus, Task } from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import type { LearnOptions } from "../learn-options.js";
import { type RunState, runStateOf } from "../run-state.js";
import { type TaskPool, taskPoolOf } from "../task-pool.js";

/** What a learning run is given: the Bus to reach roles, the store, its options and data, and where to report. */
export interface LearnContext {
  bus: Bus;
  store: Store;
  options: LearnOptions;
  /** The training tasks: a pool read by reference from its file (`openTaskPool`), or tasks in memory. */
  train: TaskPool | readonly Task[];
  val: readonly Task[];
  /** Progress of a long phase: returns the callback that receives (done, total). */
  progress: (label: string) => { update: (done: number, total: number) => void; done: () => void };
  log: (line: string) => void;
  signal?: AbortSignal;
}

/** What every node is built with: the context plus what follows from it once per run. */
export interface LearnDependencies extends LearnContext {
  runId: string;
  domain: string;
  /** This run's typed run state: what makes each node idempotent. */
  runState: RunState;
  train: TaskPool;
  batchSize: number;
  batchesPerEpoch: number;
  /** The task field batches are stratified by (null: a plain shuffle). */
  stratifyField: string | null;
  /** `{ signal }` when the run can be stopped, to spread into calls that take one. */
  stop: { signal?: AbortSignal };
}

export function learnDependencies(context: LearnContext): LearnDependencies {
  const { options } = context;
  const train = isTaskList(context.train) ? taskPoolOf(context.train, options.stratifyBy) : context.train;
  const batchSize = Math.min(options.batchSize ?? train.size, train.size);
  return {
    ...context,
    runId: options.runId,
    domain: options.domain,
    runState: runStateOf(context.store, options.runId),
    train,
    batchSize,
    batchesPerEpoch: Math.ceil(train.size / batchSize),
    stratifyField: train.stratifyField,
    stop: context.signal ? { signal: context.signal } : {},
  };
}

function isTaskList(train: TaskPool | readonly Task[]): train is readonly Task[] {
  return Array.isArray(train);
}
