import {
  addUsage,
  type ContrastInterval,
  cacheHitRate,
  contrastDirection,
  type Experience,
  emptyUsageTotals,
  entryContrast,
  formatContrast,
  formatContrastBounds,
  formatSigned,
  type UsageTotals,
} from "@tfgrpo/protocol";
import { costsByEntry } from "../learn/lesson-costs.js";
import type { StepRecord } from "../learn/step-record.js";
import type { EvaluationRow } from "../learn/summarize-evaluation.js";
import { onlineReportSection } from "../online/online-report-section.js";
import {
  describeGateRejection,
  describeLearningEvents,
  type LifecycleMove,
  lifecycleMoveVerb,
} from "./learning-events.js";
import type { ReportData } from "./report-data.js";
import { escapeXml as esc, intervalBar, lineChart, stackedBarChart } from "./svg-charts.js";

const colors = {
  train: "#2563eb",
  candidate: "#16a34a",
  head: "#9333ea",
  baseline: "#6b7280",
  commit: "#16a34a",
  reject: "#dc2626",
  candidateState: "#f59e0b",
  active: "#16a34a",
  probation: "#f97316",
  archived: "#9ca3af",
  actor: "#2563eb",
  critic: "#db2777",
  curator: "#0891b2",
  judge: "#65a30d",
  embedder: "#a16207",
  helps: "#16a34a",
  hurts: "#dc2626",
  unclear: "#6b7280",
};

const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? "-" : `${(v * 100).toFixed(1)}%`;
const num = (v: number, digits = 2) => v.toFixed(digits);
const usd = (v: number) => `$${v.toFixed(v < 0.01 ? 5 : 3)}`;

/** A self-contained HTML page: inline CSS and SVG, no script, nothing loaded from the network. */
export function renderReport(data: ReportData): string {
  const { run, steps } = data;
  const labels = steps.map((s) => `s${s.step}`);
  const sections = [
    header(data),
    onlineReportSection(run),
    steps.length > 0
      ? learningCurves(steps, labels)
      : run.kind === "online"
        ? ""
        : `<p class="empty">No learning steps recorded for this run.</p>`,
    steps.length > 0 ? libraryOverTime(steps, labels) : "",
    steps.length > 0 ? behaviourOverTime(steps, labels) : "",
    costSection(data),
    lessonCostSection(data),
    stepTable(steps),
    eventsSection(data),
    data.evaluations.map(evaluationSection).join(""),
    librarySection(data),
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>tfgrpo run ${esc(run.id)}${data.simulated ? " (SIMULATED)" : ""}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1100px;color:#111827;padding:0 16px}
h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:8px 0}th,td{border-bottom:1px solid #e5e7eb;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f9fafb}td.n{text-align:right;font-variant-numeric:tabular-nums}.sim{background:#fef3c7;border:1px solid #f59e0b;padding:8px 12px;border-radius:6px}
.meta{color:#4b5563;font-size:13px}.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{max-width:100%;height:auto;background:#fff}
.status-active{color:#15803d}.status-candidate{color:#b45309}.status-probation{color:#c2410c}.status-archived{color:#6b7280}
details{font-size:12px;color:#374151}.commit{color:#15803d;font-weight:600}.reject{color:#b91c1c;font-weight:600}
td.contrast{white-space:nowrap;font-variant-numeric:tabular-nums}.contrast svg{vertical-align:middle;margin-left:6px}
td.states{white-space:nowrap}.contrast-helps{color:#15803d}.contrast-hurts{color:#b91c1c}.contrast-unclear{color:#374151}
</style></head><body>
${sections.join("\n")}
</body></html>
`;
}

function header(data: ReportData): string {
  const { run } = data;
  return `<h1>tfgrpo run <code>${esc(run.id)}</code></h1>
<p class="meta">${esc(run.kind)} · domain <b>${esc(run.domain)}</b> · ${esc(run.status)} · started ${esc(run.startedAt)}${run.finishedAt ? ` · finished ${esc(run.finishedAt)}` : ""} · report generated ${esc(data.generatedAt)}</p>
${data.simulated ? `<p class="sim" id="simulated-banner"><b>SIMULATED.</b> This run used tfgrpo's simulated world (packages/sim), a test world: its numbers are not a claim about any real model.</p>` : ""}`;
}

function learningCurves(steps: StepRecord[], labels: string[]): string {
  const markers = steps
    .map((s, index) =>
      s.decision === "no-change"
        ? null
        : { index, label: s.decision, color: s.decision === "commit" ? colors.commit : colors.reject },
    )
    .filter((m): m is NonNullable<typeof m> => m !== null);
  return `<h2>Learning curves</h2><div class="charts" id="learning-curves">${lineChart({
    title: "Train reward and validation score per step",
    xLabels: labels,
    yLabel: "score",
    yMin: 0,
    yMax: 1,
    series: [
      { name: "train reward", values: steps.map((s) => s.trainReward), color: colors.train },
      { name: "candidate (val)", values: steps.map((s) => s.candidateScore), color: colors.candidate },
      { name: "head (val)", values: steps.map((s) => s.headScore), color: colors.head, dashed: true },
      {
        name: "no library (val)",
        values: steps.map((s) => s.baselineScore),
        color: colors.baseline,
        dashed: true,
      },
    ],
    markers,
  })}</div>`;
}

function libraryOverTime(steps: StepRecord[], labels: string[]): string {
  const state = (name: string) => steps.map((s) => s.libraryStates[name] ?? 0);
  return `<h2>Library size and lifecycle</h2><div class="charts" id="library-chart">${stackedBarChart({
    title: "Entries of the head library by lifecycle state, after each step",
    xLabels: labels,
    yLabel: "entries",
    series: [
      { name: "active", values: state("active"), color: colors.active },
      { name: "candidate", values: state("candidate"), color: colors.candidateState },
      { name: "probation", values: state("probation"), color: colors.probation },
      { name: "archived", values: state("archived"), color: colors.archived },
    ],
  })}</div>`;
}

function behaviourOverTime(steps: StepRecord[], labels: string[]): string {
  return `<h2>Tool calls and tokens per task</h2><div class="charts" id="behaviour-charts">${lineChart({
    title: "Mean tool calls per rollout",
    xLabels: labels,
    width: 540,
    series: [{ name: "tool calls", values: steps.map((s) => s.meanToolCalls), color: colors.actor }],
  })}${lineChart({
    title: "Mean tokens per rollout",
    xLabels: labels,
    width: 540,
    series: [{ name: "tokens", values: steps.map((s) => s.meanTokens), color: colors.critic }],
  })}</div>`;
}

function costSection(data: ReportData): string {
  const roles = Object.entries(data.usage.byRole).filter(([, u]) => u && u.calls > 0);
  if (roles.length === 0) return "";
  const chart = stackedBarChart({
    title: "Cost per role (USD)",
    xLabels: roles.map(([role]) => role),
    series: [{ name: "cost", values: roles.map(([, u]) => u!.costUsd), color: colors.actor }],
  });
  const rows = roles
    .map(
      ([role, u]) =>
        `<tr><td>${esc(role)}</td><td class="n">${u!.calls}</td><td class="n">${u!.inputTokens}</td><td class="n">${u!.cachedInputTokens}</td><td class="n">${hitRate(u!)}</td><td class="n">${u!.outputTokens}</td><td class="n">${usd(u!.costUsd)}</td></tr>`,
    )
    .join("");
  const t = data.usage.total;
  return `<h2>Cost per role</h2><div class="charts" id="cost-chart">${chart}</div>
<table id="cost-table"><tr><th>role</th><th>calls</th><th>input tokens</th><th>cached input</th><th title="cached input tokens / input tokens, as the provider reports them">cache hit</th><th>output tokens</th><th>cost</th></tr>${rows}
<tr><th>total</th><th class="n">${t.calls}</th><th class="n">${t.inputTokens}</th><th class="n">${t.cachedInputTokens}</th><th class="n">${hitRate(t)}</th><th class="n">${t.outputTokens}</th><th class="n">${usd(t.costUsd)}</th></tr></table>`;
}

/** What each lesson this run wrote cost to learn, beside what it has earned since (its credit). */
function lessonCostSection(data: ReportData): string {
  if (data.lessonCosts.length === 0) return "";
  const byEntry = costsByEntry(data.lessonCosts);
  const dropped = data.lessonCosts.reduce((sum, record) => sum + record.droppedUsd, 0);
  const current = new Map((data.library?.experiences ?? []).map((entry) => [entry.id, entry]));
  const rows = [...byEntry.entries()]
    .sort((a, b) => b[1].costUsd - a[1].costUsd)
    .map(([id, cost]) => {
      const entry = current.get(id);
      const credit = entry ? contrastText(entryContrast(entry.stats)) : "-";
      return `<tr><td>${esc(id)}</td><td class="${entry ? `status-${entry.status}` : ""}">${entry ? esc(entry.status) : "not in head"}</td><td class="n">${usd(cost.costUsd)}</td><td class="n">${entry ? entry.stats.shown : "-"}</td><td class="contrast">${credit}</td><td>${entry ? esc(entry.text) : ""}</td></tr>`;
    })
    .join("");
  const spent = [...byEntry.values()].reduce((sum, cost) => sum + cost.costUsd, 0);
  return `<h2>What each lesson cost and earned</h2><p class="meta">A step's critic and curator calls are shared by the operations of its committed candidate (each entry gets the share of the operation that wrote it); a step whose candidate was rejected, or that changed nothing, spent its cost on dropped proposals. Credit is the entry's contrast: mean reward of the attempts shown it minus the attempts of the same groups it was withheld from, with its interval and the number of groups.</p>
<p>${usd(spent)} on ${byEntry.size} entries · ${usd(dropped)} on dropped proposals</p>
<table id="lesson-costs"><tr><th>entry</th><th>status</th><th>cost</th><th>shown</th><th>credit</th><th>text</th></tr>${rows}</table>`;
}

function stepTable(steps: StepRecord[]): string {
  if (steps.length === 0) return "";
  const rows = steps
    .map(
      (s, i) =>
        `<tr><td class="n">${s.epoch}</td><td class="n">${s.step}</td><td class="n">${num(s.trainReward, 3)}</td><td class="n">${s.skippedGroups}/${s.groups}</td><td class="n">${s.infrastructureFailures ?? 0}+${s.validationInfrastructureFailures ?? 0}</td><td class="n">${s.proposals}${s.leakageRefused ? ` (${s.leakageRefused} refused: leakage)` : ""}</td><td class="n">${s.operations}</td><td class="n">${s.librarySize}</td><td class="n">${s.candidateScore === null ? "-" : num(s.candidateScore, 3)}</td><td class="n">${s.headScore === null ? "-" : num(s.headScore, 3)}</td><td class="n">${s.baselineScore === null ? "-" : num(s.baselineScore, 3)}</td><td class="${s.decision === "no-change" ? "" : s.decision}">${s.decision}</td><td class="n">${hitRate(stepUsage(s, steps[i - 1]))}</td><td>${esc(s.gateReason)}</td></tr>`,
    )
    .join("");
  return `<h2>Steps</h2><table id="step-table"><tr><th>epoch</th><th>step</th><th>train reward</th><th>skipped groups</th><th title="rollouts that failed on the infrastructure (model endpoint, sandbox), training + validation: not scored">infra failures</th><th>proposals</th><th>ops</th><th>library</th><th>candidate</th><th>head</th><th>no library</th><th>gate</th><th title="prompt-cache hit rate of the step's model calls, all roles: cached input tokens / input tokens">cache hit</th><th>reason</th></tr>${rows}</table>`;
}

/** What one step's model calls used, all roles together (step records hold running totals). */
function stepUsage(step: StepRecord, previous: StepRecord | undefined): UsageTotals {
  const sum = (record: StepRecord | undefined) =>
    Object.values(record?.usageByRole ?? {}).reduce(addUsage, emptyUsageTotals());
  const now = sum(step);
  const before = sum(previous);
  return {
    ...now,
    inputTokens: now.inputTokens - before.inputTokens,
    cachedInputTokens: now.cachedInputTokens - before.cachedInputTokens,
  };
}

function hitRate(usage: { inputTokens: number; cachedInputTokens: number }): string {
  const rate = cacheHitRate(usage);
  return rate === null ? "-" : pct(rate);
}

/** Gate rejections as lines, then every lifecycle move (promotions and demotions) with the reason that holds its numbers. */
function eventsSection(data: ReportData): string {
  if (!data.events) return "";
  const events = data.events;
  const seed = typeof data.run.config.seed === "number" ? data.run.config.seed : undefined;
  const moves = [...events.promotions, ...events.demotions].sort(
    (a, b) => a.version - b.version || Number(a.id.slice(1)) - Number(b.id.slice(1)),
  );
  // With no event at all, the one sentence the demo prints too.
  const lines =
    events.rejections.length > 0
      ? events.rejections.map(describeGateRejection)
      : moves.length > 0
        ? ["The gate rejected no candidate."]
        : describeLearningEvents(events, seed);
  const items = lines.map((line) => `<li>${esc(line)}</li>`).join("");
  const rows = moves.map(moveRow).join("");
  return `<h2>Gate rejections and lifecycle moves</h2><ul id="learning-events">${items}</ul>${
    moves.length > 0
      ? `<p class="meta">${events.promotions.length} promoted or restored, ${events.demotions.length} demoted or archived; each move's reason holds the evidence that decided it (the contrast, its interval and the groups it rests on).</p>
<table id="lifecycle-moves"><tr><th>version</th><th>entry</th><th>move</th><th>from → to</th><th>reason</th><th>lesson</th></tr>${rows}</table>`
      : ""
  }`;
}

function moveRow(move: LifecycleMove): string {
  const verb = lifecycleMoveVerb(move);
  const up = verb === "promoted" || verb === "restored";
  return `<tr class="move move-${verb}"><td class="n">v${move.version}</td><td><code>${esc(move.id)}</code></td><td class="${up ? "commit" : "reject"}">${verb}</td><td class="states">${esc(move.from ?? "new")} → <span class="status-${move.to}">${esc(move.to)}</span></td><td>${esc(move.reason)}</td><td>${esc(move.text)}</td></tr>`;
}

/** An entry's contrast as text: "+0.240 [+0.050, +0.430] n = 9", coloured by the way its interval points. */
function contrastText(contrast: ContrastInterval): string {
  if (contrast.n === 0) return `<span class="meta">no contrast yet</span>`;
  return `<span class="contrast-${contrastDirection(contrast)}" title="${esc(formatContrast(contrast))}">${formatSigned(contrast.estimate)} ${formatContrastBounds(contrast)}</span> <span class="meta">n = ${contrast.n}</span>`;
}

/** The contrast's text and its interval bar, on the axis the whole table shares. */
function contrastCell(contrast: ContrastInterval, range: number): string {
  if (contrast.n === 0) return contrastText(contrast);
  const direction = contrastDirection(contrast);
  return `${contrastText(contrast)}${intervalBar({
    estimate: contrast.estimate,
    lower: contrast.lower,
    upper: contrast.upper,
    range,
    color: colors[direction === "none" ? "unclear" : direction],
    label: formatContrast(contrast),
  })}`;
}

/** The half-width of the axis the interval bars of some entries share: their widest bound, rounded up to 0.25. */
function contrastRange(entries: readonly Experience[]): number {
  const bounds = entries
    .map((entry) => entryContrast(entry.stats))
    .filter((contrast) => contrast.n > 0)
    .flatMap((contrast) => [Math.abs(contrast.lower), Math.abs(contrast.upper)]);
  return Math.min(1, Math.max(0.25, Math.ceil(Math.max(0, ...bounds) * 4) / 4));
}

function ci(row: EvaluationRow["meanAtK"]): string {
  return `${pct(row.estimate)} <span class="meta">[${pct(row.low)}, ${pct(row.high)}]</span>`;
}

function evaluationSection(evaluation: ReportData["evaluations"][number]): string {
  const rows = evaluation.rows
    .map(
      (r) =>
        `<tr${r.control ? ' class="control"' : ""}><td>${esc(r.label)}${r.control ? ` <span class="meta">(placebo: ${esc(r.control.source)})</span>` : ""}</td><td class="n">${r.tasks}</td><td class="n">${ci(r.meanAtK)}</td><td class="n">${ci(r.passAtK)}</td><td class="n">${r.deltaVsReference ? `${(r.deltaVsReference.estimate * 100).toFixed(1)} pts <span class="meta">[${(r.deltaVsReference.low * 100).toFixed(1)}, ${(r.deltaVsReference.high * 100).toFixed(1)}]</span>` : "-"}</td><td class="n">${num(r.meanToolCalls)}</td><td class="n">${num(r.meanTurns)}</td><td class="n">${pct(r.toolErrorRate)}</td><td class="n">${pct(r.adherence)}</td><td class="n">${Math.round(r.tokensPerTask)}</td><td class="n">${usd(r.costPerTask)}</td><td class="n">${r.cacheHitRate === undefined || r.cacheHitRate === null ? "-" : pct(r.cacheHitRate)}</td></tr>`,
    )
    .join("");
  const chart = stackedBarChart({
    title: `Mean@${evaluation.k} by library`,
    xLabels: evaluation.rows.map((r) => r.label),
    series: [
      {
        name: `Mean@${evaluation.k}`,
        values: evaluation.rows.map((r) => r.meanAtK.estimate),
        color: colors.candidate,
      },
    ],
  });
  return `<h2>${esc(evaluation.title)}</h2><p class="meta">${evaluation.data ? `data ${esc(evaluation.data)} · ` : ""}k = ${evaluation.k} · 95% bootstrap intervals over tasks; Δ is the paired difference of Mean@k against the first row.</p>
<div class="charts evaluation-chart">${chart}</div>
<table class="evaluation-table"><tr><th>library</th><th>tasks</th><th>Mean@${evaluation.k}</th><th>Pass@${evaluation.k}</th><th>Δ vs first</th><th>tool calls</th><th>turns</th><th>tool errors</th><th>adherence</th><th>tokens/task</th><th>cost/task</th><th>cache hit</th></tr>${rows}</table>${
    evaluation.rows.some((r) => r.control)
      ? `<p class="meta">Controls are placebo libraries built for this evaluation only: keyword stubs (each entry cut to at most 3 content words), shuffled (each entry's situation with another entry's action), other domain (another domain's lessons). A lift they share is not specific to the lessons.</p>`
      : ""
  }${groupsTable(evaluation)}`;
}

function groupsTable(evaluation: ReportData["evaluations"][number]): string {
  const breakdown = evaluation.groups;
  if (!breakdown || breakdown.groups.length === 0) return "";
  const delta = (d: EvaluationRow["deltaVsReference"]) =>
    d
      ? `${(d.estimate * 100).toFixed(1)} pts <span class="meta">[${(d.low * 100).toFixed(1)}, ${(d.high * 100).toFixed(1)}]</span>`
      : "-";
  const rows = breakdown.groups
    .flatMap((group) =>
      group.rows.map(
        (r, index) =>
          `<tr>${index === 0 ? `<td rowspan="${group.rows.length}">${esc(group.value)}</td>` : ""}<td>${esc(r.label)}</td><td class="n">${r.tasks}</td><td class="n">${ci(r.meanAtK)}</td><td class="n">${delta(r.deltaVsReference)}</td></tr>`,
      ),
    )
    .join("");
  return `<h3>By ${esc(breakdown.field)}</h3><table class="evaluation-groups"><tr><th>${esc(breakdown.field)}</th><th>library</th><th>tasks</th><th>Mean@${evaluation.k}</th><th>Δ vs first</th></tr>${rows}</table>`;
}

function librarySection(data: ReportData): string {
  if (!data.library) return `<h2>Final library</h2><p class="empty">The domain has no committed library.</p>`;
  const range = contrastRange(data.library.experiences);
  const rows = [...data.library.experiences]
    .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)))
    .map((e) => {
      const rate = e.stats.shown > 0 ? e.stats.success / e.stats.shown : null;
      const history = e.history
        .map((h) => `<li>v${h.version}: ${esc(h.from ?? "new")} → ${esc(h.to)} — ${esc(h.reason)}</li>`)
        .join("");
      return `<tr class="experience"><td><code>${esc(e.id)}</code></td><td class="status-${e.status}">${e.status}</td><td>${esc(e.text)}${e.conflictGroup ? ` <span class="meta">(exclusion group ${esc(e.conflictGroup)})</span>` : ""}${history ? `<details><summary>history</summary><ul>${history}</ul></details>` : ""}</td><td class="n">${e.stats.shown}</td><td class="n">${pct(rate)}</td><td class="contrast">${contrastCell(entryContrast(e.stats), range)}</td></tr>`;
    })
    .join("");
  const gates = data.versions
    .filter((v) => v.gate)
    .map(
      (v) =>
        `<tr><td class="n">v${v.version}</td><td class="n">${v.parent === null ? "-" : `v${v.parent}`}</td><td class="${v.gate!.decision}">${v.gate!.decision}</td><td class="n">${v.gate!.candidateScore?.toFixed(3) ?? "-"}</td><td class="n">${v.gate!.headScore?.toFixed(3) ?? "-"}</td><td>${esc(v.gate!.stage)}</td><td>${esc(v.gate!.reason)}</td></tr>`,
    )
    .join("");
  return `<h2>Final library (v${data.library.version})</h2>
<p class="meta">Credit is each entry's contrast: mean reward of the attempts shown it minus the attempts of the same groups it was withheld from, with a one-sided 95% bound on each side and the number of groups (n). The bars share one axis, from −${range} to +${range}; the grey tick is 0.</p>
<table id="library-table"><tr><th>id</th><th>status</th><th>text</th><th>shown</th><th>success</th><th>credit: contrast [interval]</th></tr>${rows}</table>
${gates ? `<h2>Gate decisions</h2><table id="gate-table"><tr><th>version</th><th>parent</th><th>decision</th><th>candidate</th><th>head</th><th>stage</th><th>reason</th></tr>${gates}</table>` : ""}`;
}
