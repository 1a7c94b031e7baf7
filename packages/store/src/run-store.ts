import type { Run } from "@tfgrpo/protocol";

export interface RunFilter {
  kind?: Run["kind"];
  domain?: string;
  status?: Run["status"];
  limit?: number;
}

export type RunPatch = Partial<Omit<Run, "id">>;

/**
 * Runs (learn, eval, ... with their status and summary) and a small durable state per run, what a resumed run reads
 * back. Run records carry no foreign keys: workers on other machines may write before the run row exists.
 */
export interface RunStore {
  /** Fails with `conflict` if a run with this id exists. */
  createRun(run: Run): Promise<Run>;
  updateRun(id: string, patch: RunPatch): Promise<Run>;
  getRun(id: string): Promise<Run | null>;
  /** Newest first. */
  listRuns(filter?: RunFilter): Promise<Run[]>;

  /**
   * A small durable key-value area per run (any JSON value). Typed run state (a schema per key, checked on write and
   * on read) is built on `putRunState`, `getRunState` and `listRunStateKeys` by whoever owns the keys (the runner).
   */
  putRunState(runId: string, key: string, value: unknown): Promise<void>;
  /** `undefined` when the key was never written (or was deleted). */
  getRunState(runId: string, key: string): Promise<unknown>;
  deleteRunState(runId: string, key: string): Promise<boolean>;
  listRunStateKeys(runId: string): Promise<string[]>;
}
