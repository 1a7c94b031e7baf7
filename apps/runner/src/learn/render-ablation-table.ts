import { renderTable } from "../cli-output/render-table.js";
import type { EvaluationRow } from "./summarize-evaluation.js";

/** The settings of the paper's math ablation (Training-Free GRPO, DeepSeek-V3.1 + ReAct), in its table's order. */
export const ablationVariants = ["none", "direct", "no-gt", "g1", "no-exposure", "full"] as const;
export type AblationVariant = (typeof ablationVariants)[number];

/**
 * The paper's AIME24 / AIME25 Mean@32 for each setting (a reference for the ordering, not a target). "Exposure off" is
 * the paper's own loop (every attempt of a group sees the same entries) beside ours with per-entry contrasts; the
 * paper reports no such row, its full setting is that loop.
 */
export const paperAblation: Record<
  AblationVariant,
  { setting: string; aime24: number | null; aime25: number | null }
> = {
  none: { setting: "no library", aime24: 80.0, aime25: 67.9 },
  direct: { setting: "direct experiences", aime24: 79.8, aime25: 67.3 },
  "no-gt": { setting: "TF-GRPO, no ground truth", aime24: 80.7, aime25: 68.9 },
  g1: { setting: "TF-GRPO, G = 1", aime24: 80.4, aime25: 69.3 },
  "no-exposure": { setting: "TF-GRPO, exposure off (the paper's loop)", aime24: null, aime25: null },
  full: { setting: "TF-GRPO, full (G = 5)", aime24: 82.7, aime25: 73.3 },
};

export interface AblationRow {
  /** A setting of the paper's table, or a placebo control of the full run's library (`control-libraries.ts`). */
  variant: AblationVariant | "control";
  /** The setting as run here (e.g. "TF-GRPO, full (G = 4)" when the group size was changed). */
  setting: string;
  /** `math@v3`, or `none` when the run committed no library. */
  library: string;
  /** Visible entries of the evaluated library. */
  lessons: number;
  runId: string | null;
  /** The run's database (each setting learns in a workspace of its own). */
  database: string | null;
  evaluation: EvaluationRow;
}

const percent = (v: number) => (v * 100).toFixed(1);

/** The ablation as a terminal table, in the paper's order, with the paper's numbers beside ours. */
export function renderAblationTable(rows: readonly AblationRow[], k: number): string {
  return renderTable(
    [
      { header: "setting", value: (r) => r.setting },
      { header: "library", value: (r) => r.library },
      { header: "lessons", value: (r) => r.lessons },
      {
        header: `Mean@${k} % [95% CI]`,
        value: (r) =>
          `${percent(r.evaluation.meanAtK.estimate)} [${percent(r.evaluation.meanAtK.low)}, ${percent(r.evaluation.meanAtK.high)}]`,
        align: "right",
      },
      {
        header: "Δ vs none (pts) [95% CI]",
        value: (r) => {
          const delta = r.evaluation.deltaVsReference;
          return delta ? `${percent(delta.estimate)} [${percent(delta.low)}, ${percent(delta.high)}]` : "-";
        },
        align: "right",
      },
      {
        header: `Pass@${k} %`,
        value: (r) => percent(r.evaluation.passAtK.estimate),
        align: "right",
      },
      {
        header: "paper AIME24 / AIME25",
        value: (r) => {
          if (r.variant === "control") return "-";
          const { aime24, aime25 } = paperAblation[r.variant];
          return aime24 === null || aime25 === null ? "-" : `${aime24.toFixed(1)} / ${aime25.toFixed(1)}`;
        },
        align: "right",
      },
    ],
    rows,
  );
}
