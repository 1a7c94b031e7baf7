import type { Bus, Task } from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import type { LearnOptions } from "../learn-options.js";
import { type RunState, runStateOf } from "../run-state.js";
import { resolveStratifyField } from "../stratified-order.js";

/** What a learning run is given: the Bus to reach roles, the store, its options and data, and where to report. */
export interface LearnContext {
  bus: Bus;
  store: Store;
  options: LearnOptions;
  train: readonly Task[];
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
  taskById: ReadonlyMap<string, Task>;
  batchSize: number;
  batchesPerEpoch: number;
  /** The task field batches are stratified by (null: a plain shuffle). */
  stratifyField: string | null;
  /** `{ signal }` when the run can be stopped, to spread into calls that take one. */
  stop: { signal?: AbortSignal };
}

export function learnDependencies(context: LearnContext): LearnDependencies {
  const { options, train } = context;
  const batchSize = Math.min(options.batchSize ?? train.length, train.length);
  return {
    ...context,
    runId: options.runId,
    domain: options.domain,
    runState: runStateOf(context.store, options.runId),
    taskById: new Map(train.map((task) => [task.id, task])),
    batchSize,
    batchesPerEpoch: Math.ceil(train.length / batchSize),
    stratifyField: resolveStratifyField(train, options.stratifyBy),
    stop: context.signal ? { signal: context.signal } : {},
  };
}
