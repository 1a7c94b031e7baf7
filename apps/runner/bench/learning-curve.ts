import type { Store } from "@tfgrpo/store";
import { evaluationGroupId } from "../src/learn/group-ids.js";
import type { StepRecord } from "../src/learn/step-record.js";

/** Where a run stood after one of its steps: the rollouts spent so far and the head it had then. */
export interface CurvePoint {
  step: number;
  /** Training plus validation rollouts run up to the end of this step (unique rollouts; reused ones counted once). */
  rollouts: number;
  head: number | null;
}

/**
 * A learning run's cost curve, from what it stored: per step its training rollouts, and the validation rollouts first
 * run in that step. A step's gate compares its candidate with the head on as many rounds (attempts per task) as the
 * candidate's stored samples show; the head's samples of earlier rounds were run by an earlier step and are reused,
 * so a step pays only for the head's rounds beyond what ran before (and for the pre-check's tasks likewise).
 */
export async function learningCurve(
  store: Store,
  runId: string,
  domain: string,
  history: readonly StepRecord[],
): Promise<CurvePoint[]> {
  const trajectories = await store.listTrajectories({ runId });
  /** Per evaluation group (a version's samples of one task): the attempts stored. */
  const attempts = new Map<string, number>();
  for (const trajectory of trajectories) {
    if (trajectory.groupId === undefined) continue;
    attempts.set(trajectory.groupId, (attempts.get(trajectory.groupId) ?? 0) + 1);
  }
  const label = (version: number | null) => (version === null ? "none" : `${domain}@v${version}`);
  /** Per evaluation group, the attempts already paid for by an earlier step. */
  const paid = new Map<string, number>();
  const taskIds = [...new Set(trajectories.map((t) => t.taskId))];
  let spent = 0;
  /** The newest version an earlier step made: a step makes the versions after it, up to its candidate. */
  let made = -1;
  const points: CurvePoint[] = [];
  for (const record of history) {
    spent += record.rollouts;
    const candidate = record.candidateVersion;
    if (candidate !== null) {
      // Compared in this step: the head it started on and every version it made (a lifecycle-only version can become
      // the head the candidate is gated against).
      const versions = new Set<number | null>([record.headBefore]);
      for (let version = made + 1; version <= candidate; version++) versions.add(version);
      made = Math.max(made, candidate);
      for (const evaluation of ["precheck", "validation"]) {
        for (const taskId of taskIds) {
          const rounds = attempts.get(evaluationGroupId(runId, evaluation, label(candidate), taskId)) ?? 0;
          if (rounds === 0) continue;
          for (const version of versions) {
            const group = evaluationGroupId(runId, evaluation, label(version), taskId);
            const wanted = Math.min(rounds, attempts.get(group) ?? 0);
            const before = paid.get(group) ?? 0;
            if (wanted > before) {
              spent += wanted - before;
              paid.set(group, wanted);
            }
          }
        }
      }
    }
    points.push({ step: record.step, rollouts: spent, head: record.headAfter });
  }
  return points;
}
