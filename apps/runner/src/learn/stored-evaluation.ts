import type { EvaluationBreakdown, EvaluationRow } from "./summarize-evaluation.js";

/** An evaluation as it is kept in a run's state: the table's rows, the grouped gains, and when it was made. */
export interface StoredEvaluation {
  id: string;
  title: string;
  data: string | null;
  k: number;
  rows: EvaluationRow[];
  /** Mean@k and the paired Δ per value of a task field (e.g. in-family / out-of-family), when grouped. */
  groups?: EvaluationBreakdown;
  createdAt: string;
}
