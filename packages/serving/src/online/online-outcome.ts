/**
 * One served task with its reported outcome, as online learning sees it (a subset of the outcome store's
 * `StoredOutcome`, so stored outcomes can be passed as they are).
 */
export interface OnlineOutcome {
  selectionId: string;
  domain: string;
  /** The library version that served the task (null: the empty library). */
  version: number | null;
  task: string;
  /** In [0, 1]. */
  reward: number;
  success: boolean;
  /** What the agent did, when the client sent a summary (or one was made from its trajectory). */
  summary: string | null;
  feedback: string | null;
  trajectory?: unknown;
  /** The outcome store's report-order number, when it came from the store: the learner's cursor. */
  seq?: number;
}

/** Turns an outcome without a summary into one (e.g. the critic's stage-1 summary of its trajectory). */
export type SummarizeOutcome = (outcome: OnlineOutcome) => Promise<string | null>;
