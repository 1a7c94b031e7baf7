import { renderTable } from "../cli-output/render-table.js";
import type { StoredEvaluation } from "../report/report-data.js";

const percent = (v: number) => `${(v * 100).toFixed(1)}`;

/** The evaluation as a terminal table: estimates with their 95% intervals, and the behaviour columns. */
export function renderEvaluationTable(evaluation: StoredEvaluation): string {
  const k = evaluation.k;
  return renderTable(
    [
      { header: "library", value: (r) => r.label },
      { header: "tasks", value: (r) => r.tasks },
      {
        header: `Mean@${k} % [95% CI]`,
        value: (r) =>
          `${percent(r.meanAtK.estimate)} [${percent(r.meanAtK.low)}, ${percent(r.meanAtK.high)}]`,
        align: "right",
      },
      {
        header: `Pass@${k} % [95% CI]`,
        value: (r) =>
          `${percent(r.passAtK.estimate)} [${percent(r.passAtK.low)}, ${percent(r.passAtK.high)}]`,
        align: "right",
      },
      {
        header: "Δ Mean vs first (pts)",
        value: (r) =>
          r.deltaVsReference
            ? `${percent(r.deltaVsReference.estimate)} [${percent(r.deltaVsReference.low)}, ${percent(r.deltaVsReference.high)}]`
            : "-",
        align: "right",
      },
      { header: "tool calls", value: (r) => r.meanToolCalls },
      { header: "turns", value: (r) => r.meanTurns },
      { header: "tool err %", value: (r) => percent(r.toolErrorRate), align: "right" },
      {
        header: "adherence %",
        value: (r) => (r.adherence === null ? "-" : percent(r.adherence)),
        align: "right",
      },
      { header: "tokens/task", value: (r) => Math.round(r.tokensPerTask) },
      { header: "$/task", value: (r) => r.costPerTask.toFixed(5), align: "right" },
    ],
    evaluation.rows,
  );
}
