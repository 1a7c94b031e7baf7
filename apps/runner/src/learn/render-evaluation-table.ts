import { renderTable } from "../cli-output/render-table.js";
import type { StoredEvaluation } from "./stored-evaluation.js";

const percent = (v: number) => `${(v * 100).toFixed(1)}`;

/** The evaluation as a terminal table: estimates with their 95% intervals, and the behaviour columns. */
export function renderEvaluationTable(evaluation: StoredEvaluation): string {
  const k = evaluation.k;
  return renderTable(
    [
      { header: "library", value: (r) => r.label },
      { header: "tasks", value: (r) => r.tasks },
      meanColumn(k),
      {
        header: `Pass@${k} % [95% CI]`,
        value: (r) =>
          `${percent(r.passAtK.estimate)} [${percent(r.passAtK.low)}, ${percent(r.passAtK.high)}]`,
        align: "right",
      },
      ...passHatColumns(evaluation),
      deltaColumn(),
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
      {
        header: "cache hit %",
        value: (r) =>
          r.cacheHitRate === undefined || r.cacheHitRate === null ? "-" : percent(r.cacheHitRate),
        align: "right",
      },
      // Only when some sample failed on the infrastructure: those count as 0 in the scores above.
      ...(evaluation.rows.some((r) => (r.infrastructureFailures ?? 0) > 0)
        ? [
            {
              header: "infra fail",
              value: (r: StoredEvaluation["rows"][number]) => r.infrastructureFailures ?? 0,
            },
          ]
        : []),
    ],
    evaluation.rows,
  );
}

/**
 * The evaluation split by a task field (e.g. familySplit: in-family / out-of-family): per group, each library's
 * Mean@k and its paired Δ against the first library on the same tasks. Empty when the evaluation is not grouped.
 */
export function renderEvaluationGroups(evaluation: StoredEvaluation): string {
  const breakdown = evaluation.groups;
  if (!breakdown || breakdown.groups.length === 0) return "";
  const k = evaluation.k;
  const rows = breakdown.groups.flatMap((group) =>
    group.rows.map((row, index) => ({ ...row, group: index === 0 ? group.value : "" })),
  );
  return `by ${breakdown.field}:\n${renderTable(
    [
      { header: breakdown.field, value: (r) => r.group },
      { header: "library", value: (r) => r.label },
      { header: "tasks", value: (r) => r.tasks },
      meanColumn(k),
      deltaColumn(),
    ],
    rows,
  )}`;
}

/** One line per group: "in-family: math@v3 +62.5 pts [50.0, 75.0] over none (8 tasks)" for each non-first library. */
export function describeGroupGains(evaluation: StoredEvaluation): string[] {
  const breakdown = evaluation.groups;
  if (!breakdown) return [];
  const reference = evaluation.rows[0]?.label ?? "the first library";
  return breakdown.groups.flatMap((group) =>
    group.rows
      .filter((row) => row.deltaVsReference)
      .map((row) => {
        const d = row.deltaVsReference!;
        const sign = d.estimate > 0 ? "+" : "";
        return `${group.value}: ${row.label} ${sign}${percent(d.estimate)} pts [95% CI ${percent(d.low)}, ${percent(d.high)}] over ${reference} (${row.tasks} tasks)`;
      }),
  );
}

/** pass^1..pass^4 with their intervals, when the evaluation has them (conversational, stateful domains). */
function passHatColumns(evaluation: StoredEvaluation) {
  const ks = evaluation.rows[0]?.passHatK?.map((entry) => entry.k) ?? [];
  return ks.map((k) => ({
    header: `pass^${k} % [95% CI]`,
    value: (r: StoredEvaluation["rows"][number]) => {
      const value = r.passHatK?.find((entry) => entry.k === k)?.value;
      return value ? `${percent(value.estimate)} [${percent(value.low)}, ${percent(value.high)}]` : "-";
    },
    align: "right" as const,
  }));
}

interface ScoredRow {
  meanAtK: { estimate: number; low: number; high: number };
  deltaVsReference: { estimate: number; low: number; high: number } | null;
}

/** Mean@k with its interval: one column shape for the library table and the grouped table. */
function meanColumn<R extends ScoredRow>(k: number) {
  return {
    header: `Mean@${k} % [95% CI]`,
    value: (r: R) => `${percent(r.meanAtK.estimate)} [${percent(r.meanAtK.low)}, ${percent(r.meanAtK.high)}]`,
    align: "right" as const,
  };
}

/** The paired difference against the first library, or "-" for the first itself. */
function deltaColumn<R extends ScoredRow>() {
  return {
    header: "Δ Mean vs first (pts)",
    value: (r: R) =>
      r.deltaVsReference
        ? `${percent(r.deltaVsReference.estimate)} [${percent(r.deltaVsReference.low)}, ${percent(r.deltaVsReference.high)}]`
        : "-",
    align: "right" as const,
  };
}
