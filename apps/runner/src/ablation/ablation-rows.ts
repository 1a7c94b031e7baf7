import { type AblationRow, ablationVariants, paperAblation } from "../learn/render-ablation-table.js";
import { summarizeEvaluation } from "../learn/summarize-evaluation.js";
import type { AblationSettings } from "./ablation-settings.js";
import type { VariantEvaluations } from "./evaluate-variants.js";
import { libraryOf, type VariantRun } from "./learn-variant.js";

/**
 * The ablation table's rows: the paper's settings in its order, then the placebo controls of the full run's library,
 * each summarized with the others (paired against no library on the same tasks and seeds).
 */
export function ablationRows(
  evaluated: VariantEvaluations,
  runs: Record<VariantRun["variant"], VariantRun>,
  settings: AblationSettings,
  /** Lessons of the direct-experiences setting. */
  lessons: number,
): { rows: AblationRow[]; controls: AblationRow[] } {
  const { evaluations, trajectories, controlEvaluations } = evaluated;
  const full = runs.full;
  const ordered = [
    ...ablationVariants.map((variant) => evaluations.get(variant)!),
    ...controlEvaluations.map((c) => c.evaluation),
  ];
  const summary = summarizeEvaluation(ordered, trajectories, { seed: settings.seed });
  const rows: AblationRow[] = ablationVariants.map((variant, index) => {
    const run = variant === "none" ? null : runs[variant];
    const library = run ? libraryOf(run, settings.domain).label : "none";
    const setting =
      variant === "full"
        ? `TF-GRPO, full (G = ${settings.groupSize})`
        : variant === "no-gt"
          ? `TF-GRPO, no ground truth (G = ${settings.groupSize})`
          : variant === "no-exposure"
            ? `TF-GRPO, exposure off (G = ${settings.groupSize})`
            : variant === "direct"
              ? `direct experiences (N = ${lessons})`
              : paperAblation[variant].setting;
    return {
      variant,
      setting,
      library,
      lessons: run?.lessons ?? 0,
      runId: run?.runId ?? null,
      database: run?.database ?? null,
      evaluation: { ...summary[index]!, label: `${setting}: ${library}` },
    };
  });
  const controls: AblationRow[] = controlEvaluations.map(({ control }, index) => {
    const info = control.library.control;
    return {
      variant: "control",
      setting: control.library.label,
      library: info.of ?? info.source,
      lessons: control.snapshot.experiences.length,
      runId: full.runId,
      database: full.database,
      evaluation: { ...summary[ablationVariants.length + index]!, control: info },
    };
  });
  return { rows, controls };
}
