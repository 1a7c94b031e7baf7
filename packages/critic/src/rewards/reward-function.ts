import type { Task, Trajectory, UsageTotals } from "@tfgrpo/protocol";

export type RewardGrade = "pass" | "partial" | "fail";

/** What a reward function says about one final answer. */
export interface RewardOutcome {
  /** In [0, 1]. */
  reward: number;
  grade: RewardGrade;
  /** The answer the function compared (e.g. the boxed part), when it extracted one. */
  extracted: string | null;
  /** Which function decided: "math", "exact", "contains", "judge", "module:<path>". */
  method: string;
  reason?: string;
  /** Model usage spent deciding (the judge), for per-role cost. */
  usage?: UsageTotals;
}

/** Scores one final answer of a task. `trajectory` is there for functions that look at how it was reached. */
export type RewardFunction = (
  task: Task,
  finalAnswer: string | null,
  trajectory?: Trajectory,
) => RewardOutcome | Promise<RewardOutcome>;

/** pass at 1, fail at 0, partial in between (seed 002's graded buckets). */
export function gradeOf(reward: number): RewardGrade {
  if (reward >= 1) return "pass";
  if (reward <= 0) return "fail";
  return "partial";
}
