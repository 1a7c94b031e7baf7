import type { Trajectory } from "@tfgrpo/protocol";
import { bootstrapMean, bootstrapPairedDifference, type ConfidenceInterval } from "../metrics/bootstrap.js";
import { meanAtK, passAtK } from "../metrics/pass-at-k.js";
import type { LibraryEvaluation } from "./evaluate-libraries.js";

export interface EvaluationRow {
  label: string;
  tasks: number;
  k: number;
  meanAtK: ConfidenceInterval;
  passAtK: ConfidenceInterval;
  meanToolCalls: number;
  meanTurns: number;
  toolErrorRate: number;
  /** Share of shown experiences the actor cited (null when nothing was shown). */
  adherence: number | null;
  tokensPerTask: number;
  costPerTask: number;
  /** Paired difference of Mean@k against the first library (the reference), when this is not it. */
  deltaVsReference: ConfidenceInterval | null;
}

/**
 * Turns per-task rewards and the stored trajectories into the evaluation table: Mean@k and Pass@k with 95% bootstrap
 * intervals over tasks, and the behaviour numbers (tool calls, turns, errors, adherence, tokens, cost per task).
 */
export function summarizeEvaluation(
  evaluations: readonly LibraryEvaluation[],
  trajectoriesById: ReadonlyMap<string, Trajectory>,
  options: { seed?: number; resamples?: number } = {},
): EvaluationRow[] {
  const seed = options.seed ?? 1;
  const reference = evaluations[0];
  return evaluations.map((evaluation) => {
    const k = Math.min(...evaluation.tasks.map((t) => t.rewards.length));
    const perTaskMean = evaluation.tasks.map((t) => meanAtK(t.rewards));
    const perTaskPass = evaluation.tasks.map((t) =>
      passAtK(t.rewards.length, t.rewards.filter((r) => r >= 1).length, Math.max(1, k)),
    );
    const trajectories = evaluation.tasks.flatMap((t) =>
      t.trajectoryIds.map((id) => trajectoriesById.get(id)).filter((x): x is Trajectory => x !== undefined),
    );
    const toolCalls = trajectories.flatMap((t) => t.toolCalls);
    const shown = trajectories.reduce((sum, t) => sum + t.experiencesShown.length, 0);
    const cited = trajectories.reduce(
      (sum, t) => sum + t.experiencesCited.filter((id) => t.experiencesShown.includes(id)).length,
      0,
    );
    const perSample = (value: (t: Trajectory) => number) =>
      trajectories.length === 0
        ? 0
        : trajectories.reduce((sum, t) => sum + value(t), 0) / trajectories.length;
    const samplesPerTask = trajectories.length / Math.max(1, evaluation.tasks.length);
    return {
      label: evaluation.label,
      tasks: evaluation.tasks.length,
      k,
      meanAtK: bootstrapMean(perTaskMean, {
        seed,
        ...(options.resamples ? { resamples: options.resamples } : {}),
      }),
      passAtK: bootstrapMean(perTaskPass, {
        seed,
        ...(options.resamples ? { resamples: options.resamples } : {}),
      }),
      meanToolCalls: perSample((t) => t.toolCalls.length),
      meanTurns: perSample((t) => t.messages.filter((m) => m.role === "assistant").length),
      toolErrorRate:
        toolCalls.length === 0 ? 0 : toolCalls.filter((c) => c.error !== undefined).length / toolCalls.length,
      adherence: shown === 0 ? null : cited / shown,
      tokensPerTask: perSample((t) => t.usage.inputTokens + t.usage.outputTokens) * samplesPerTask,
      costPerTask: perSample((t) => t.usage.costUsd) * samplesPerTask,
      deltaVsReference:
        reference && reference !== evaluation && reference.tasks.length === evaluation.tasks.length
          ? bootstrapPairedDifference(
              reference.tasks.map((t) => meanAtK(t.rewards)),
              perTaskMean,
              { seed },
            )
          : null,
    };
  });
}
