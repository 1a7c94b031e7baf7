/**
 * The ids of rollout groups, made and read here only: a group is the G attempts at one task under one library.
 * - training: `<runId>/s<step>/<taskId>`, a task's rollouts in one learning step;
 * - evaluation: `<runId>/<evaluationId>/<library label>/<taskId>`, a task's samples under one library of an evaluation.
 * A trajectory's id is its group's id and the attempt (`<groupId>/<attempt>`, `rollouts.ts`).
 */

/** The group of a task's training rollouts in one learning step. */
export function trainingGroupId(runId: string, step: number, taskId: string): string {
  return `${runId}/s${step}/${taskId}`;
}

/** Whether a group is one of a learning step's training groups (of any task). */
export function isTrainingGroupOf(groupId: string, runId: string, step: number): boolean {
  return groupId.startsWith(trainingGroupId(runId, step, ""));
}

/** The group of a task's samples under one library of an evaluation (a paired comparison). */
export function evaluationGroupId(
  runId: string,
  evaluationId: string,
  libraryLabel: string,
  taskId: string,
): string {
  return `${runId}/${evaluationId}/${libraryLabel}/${taskId}`;
}
