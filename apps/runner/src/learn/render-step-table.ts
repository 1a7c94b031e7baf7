import { cacheHitRate, type UsageTotals } from "@tfgrpo/protocol";
import { renderTable } from "../cli-output/render-table.js";
import type { ClosingOutcome } from "./run-state.js";
import type { StepRecord } from "./step-record.js";

const roles = ["actor", "critic", "curator", "judge"] as const;

/**
 * The end-of-run summary: one row per learning step. Usage is stored as running totals; the table shows what each
 * step itself spent, per role.
 */
export function renderStepTable(history: readonly StepRecord[]): string {
  if (history.length === 0) return "(no learning step ran)";
  const rows = history.map((record, i) => {
    const previous = i > 0 ? history[i - 1]!.usageByRole : {};
    const spent = Object.fromEntries(
      roles.map((role) => [role, difference(record.usageByRole[role], previous[role])]),
    ) as Record<(typeof roles)[number], ReturnType<typeof difference>>;
    return { record, spent };
  });
  return renderTable(
    [
      { header: "epoch", value: (r) => r.record.epoch },
      { header: "step", value: (r) => r.record.step },
      { header: "train reward", value: (r) => r.record.trainReward },
      {
        // Rollouts that failed on the infrastructure (model endpoint, sandbox...): training + validation.
        header: "infra fail",
        value: (r) =>
          `${r.record.infrastructureFailures ?? 0}+${r.record.validationInfrastructureFailures ?? 0}`,
        align: "right",
      },
      { header: "skipped", value: (r) => `${r.record.skippedGroups}/${r.record.groups}`, align: "right" },
      {
        header: "ops prop/appl",
        value: (r) =>
          `${r.record.proposals}/${r.record.operations}${r.record.leakageRefused ? ` (${r.record.leakageRefused} leak)` : ""}`,
        align: "right",
      },
      { header: "library", value: (r) => r.record.librarySize },
      {
        // Entries and lesson tokens a training prompt showed, on average: what the budget keeps the block within.
        header: "shown/rollout",
        value: (r) =>
          r.record.meanEntriesShown === undefined
            ? "-"
            : `${r.record.meanEntriesShown.toFixed(1)} / ${Math.round(r.record.meanLessonTokensShown ?? 0)} tok`,
        align: "right",
      },
      { header: "val cand", value: (r) => r.record.candidateScore },
      { header: "val head", value: (r) => r.record.headScore },
      { header: "val none", value: (r) => r.record.baselineScore },
      { header: "gate", value: (r) => r.record.decision },
      // Per role: tokens / USD / prompt-cache hit rate (cached input tokens / input tokens, as the provider says).
      ...roles.map((role) => ({
        header: `${role} tok/$/cache`,
        value: (r: (typeof rows)[number]) => {
          const spent = r.spent[role];
          if (spent.tokens === 0) return "-";
          const hit = cacheHitRate(spent);
          return `${compact(spent.tokens)}/${spent.costUsd.toFixed(4)}/${hit === null ? "-" : `${Math.round(hit * 100)}%`}`;
        },
        align: "right" as const,
      })),
    ],
    rows,
  );
}

function difference(current: UsageTotals | undefined, previous: UsageTotals | undefined) {
  const tokens = (u: UsageTotals | undefined) => (u ? u.inputTokens + u.outputTokens : 0);
  return {
    tokens: tokens(current) - tokens(previous),
    inputTokens: (current?.inputTokens ?? 0) - (previous?.inputTokens ?? 0),
    cachedInputTokens: (current?.cachedInputTokens ?? 0) - (previous?.cachedInputTokens ?? 0),
    costUsd: (current?.costUsd ?? 0) - (previous?.costUsd ?? 0),
  };
}

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** What the lifecycle's closing look decided after the last step, one line per move (or that nothing moved). */
export function renderClosing(closing: ClosingOutcome): string {
  if (closing.headBefore === null) return "end of run: no library to look at";
  if (closing.transitions.length === 0)
    return `end of run: lifecycle on v${closing.headBefore}: no entry has the evidence for a move`;
  return [
    `end of run: lifecycle on v${closing.headBefore} -> v${closing.version} (committed, ${closing.transitions.length} move(s)):`,
    ...closing.transitions.map((t) => `  ${t.id} ${t.from} -> ${t.to}: ${t.reason}`),
  ].join("\n");
}
