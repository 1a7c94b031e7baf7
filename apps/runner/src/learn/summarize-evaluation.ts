import { cacheHitRate, type Task, TfgrpoError, type Trajectory } from "@tfgrpo/protocol";
import { bootstrapMean, bootstrapPairedDifference, type ConfidenceInterval } from "../metrics/bootstrap.js";
import { meanAtK, passAtK } from "../metrics/pass-at-k.js";
import { passHatK, passHatKs } from "../metrics/pass-hat-k.js";
import type { LibraryEvaluation } from "./library-evaluation.js";
import type { PlaceboKind } from "./placebo-libraries.js";

/** A placebo library evaluated beside the real ones (`eval --controls`, `ablate`). */
export interface ControlInfo {
  kind: PlaceboKind;
  /** The library it was built from (null: the other-domain control, which is built from none). */
  of: string | null;
  /** Where its texts came from, in words (e.g. "test-data/youtu-agent-libraries/web.json"). */
  source: string;
}

export interface EvaluationRow {
  label: string;
  tasks: number;
  k: number;
  meanAtK: ConfidenceInterval;
  passAtK: ConfidenceInterval;
  /**
   * τ²-bench's pass^k (all k trials succeed; k = 1..4 within the samples), averaged over tasks with a 95%
   * bootstrap interval: on conversational, stateful domains only (`reportsPassHat`).
   */
  passHatK?: { k: number; value: ConfidenceInterval }[];
  meanToolCalls: number;
  meanTurns: number;
  toolErrorRate: number;
  /** Share of shown experiences the actor cited (null when nothing was shown). */
  adherence: number | null;
  tokensPerTask: number;
  costPerTask: number;
  /** The actor's prompt-cache hit rate over these samples (cached input / input tokens); null without input. */
  cacheHitRate?: number | null;
  /** Paired difference of Mean@k against the first library (the reference), when this is not it. */
  deltaVsReference: ConfidenceInterval | null;
  /** Samples that failed on the infrastructure (model endpoint, sandbox...), scored 0 above: shown apart. */
  infrastructureFailures?: number;
  /** Set on placebo rows: what kind of control, built from which library. */
  control?: ControlInfo;
}

/** Mean@k of one library on the tasks of one group, and its paired difference to the first library there. */
export interface EvaluationGroupRow {
  label: string;
  tasks: number;
  meanAtK: ConfidenceInterval;
  deltaVsReference: ConfidenceInterval | null;
}

export interface EvaluationGroup {
  /** The value of the task field (`(missing)` for tasks without it). */
  value: string;
  tasks: number;
  rows: EvaluationGroupRow[];
}

/** The evaluation split by a task field (`eval --group-by`, by default `familySplit` when the tasks carry it). */
export interface EvaluationBreakdown {
  field: string;
  groups: EvaluationGroup[];
}

export const missingGroupValue = "(missing)";

/** A task's value of `meta[field]` as a group name. */
export function groupValueOf(task: Pick<Task, "meta">, field: string): string {
  const value = task.meta?.[field];
  if (value === undefined || value === null) return missingGroupValue;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The field to group by: the one asked for (`none` for no grouping), else `familySplit` when some task carries it.
 * A field no task has is refused, naming the fields they do have.
 */
export function resolveGroupBy(
  tasks: readonly Pick<Task, "meta">[],
  requested: string | undefined,
): string | null {
  if (requested === "none") return null;
  const has = (field: string) => tasks.some((task) => task.meta?.[field] !== undefined);
  if (requested === undefined) return has("familySplit") ? "familySplit" : null;
  if (!has(requested)) {
    const fields = [...new Set(tasks.flatMap((task) => Object.keys(task.meta ?? {})))].sort();
    throw new TfgrpoError(
      "invalid_input",
      `--group-by ${requested}: no task has that field${fields.length > 0 ? ` (their fields: ${fields.join(", ")})` : " (the tasks have no metadata)"}`,
    );
  }
  return requested;
}

/**
 * Mean@k per library within each group of tasks sharing `meta[field]` (groups in sorted order, tasks without the
 * field last), with the paired bootstrap difference against the first library on the same tasks: e.g. the gain on
 * task families seen in training against the gain on held-out families.
 */
export function summarizeGroups(
  evaluations: readonly LibraryEvaluation[],
  tasks: readonly Pick<Task, "id" | "meta">[],
  field: string,
  options: { seed?: number; resamples?: number } = {},
): EvaluationBreakdown {
  const seed = options.seed ?? 1;
  const bootstrap = { seed, ...(options.resamples ? { resamples: options.resamples } : {}) };
  const byValue = new Map<string, string[]>();
  for (const task of tasks) {
    const value = groupValueOf(task, field);
    byValue.set(value, [...(byValue.get(value) ?? []), task.id]);
  }
  const values = [...byValue.keys()].sort((a, b) =>
    a === missingGroupValue ? 1 : b === missingGroupValue ? -1 : a.localeCompare(b),
  );
  const scores = evaluations.map(
    (evaluation) => new Map(evaluation.tasks.map((t) => [t.taskId, meanAtK(t.rewards)])),
  );
  const reference = scores[0];
  const groups = values.map((value): EvaluationGroup => {
    const ids = byValue.get(value)!;
    const rows = evaluations.flatMap((evaluation, index): EvaluationGroupRow[] => {
      const own = scores[index]!;
      const present = ids.filter((id) => own.has(id));
      if (present.length === 0) return [];
      const paired = index === 0 || !reference ? [] : present.filter((id) => reference.has(id));
      return [
        {
          label: evaluation.label,
          tasks: present.length,
          meanAtK: bootstrapMean(
            present.map((id) => own.get(id)!),
            bootstrap,
          ),
          deltaVsReference:
            paired.length === 0
              ? null
              : bootstrapPairedDifference(
                  paired.map((id) => reference!.get(id)!),
                  paired.map((id) => own.get(id)!),
                  bootstrap,
                ),
        },
      ];
    });
    return { value, tasks: ids.length, rows };
  });
  return { field, groups };
}

/**
 * Turns per-task rewards and the stored trajectories into the evaluation table: Mean@k and Pass@k with 95% bootstrap
 * intervals over tasks, and the behaviour numbers (tool calls, turns, errors, adherence, tokens, cost per task).
 */
export function summarizeEvaluation(
  evaluations: readonly LibraryEvaluation[],
  trajectoriesById: ReadonlyMap<string, Trajectory>,
  options: { seed?: number; resamples?: number; passHat?: boolean } = {},
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
    const passHat = options.passHat
      ? passHatKs(k).map((hatK) => ({
          k: hatK,
          value: bootstrapMean(
            evaluation.tasks.map((t) =>
              passHatK(t.rewards.length, t.rewards.filter((r) => r >= 1).length, hatK),
            ),
            { seed, ...(options.resamples ? { resamples: options.resamples } : {}) },
          ),
        }))
      : undefined;
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
      ...(passHat ? { passHatK: passHat } : {}),
      meanToolCalls: perSample((t) => t.toolCalls.length),
      meanTurns: perSample((t) => t.messages.filter((m) => m.role === "assistant").length),
      toolErrorRate:
        toolCalls.length === 0 ? 0 : toolCalls.filter((c) => c.error !== undefined).length / toolCalls.length,
      adherence: shown === 0 ? null : cited / shown,
      tokensPerTask: perSample((t) => t.usage.inputTokens + t.usage.outputTokens) * samplesPerTask,
      costPerTask: perSample((t) => t.usage.costUsd) * samplesPerTask,
      cacheHitRate: cacheHitRate({
        inputTokens: trajectories.reduce((sum, t) => sum + t.usage.inputTokens, 0),
        cachedInputTokens: trajectories.reduce((sum, t) => sum + t.usage.cachedInputTokens, 0),
      }),
      infrastructureFailures: evaluation.tasks.reduce((sum, t) => sum + (t.infrastructureFailures ?? 0), 0),
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
