import type { Run } from "@tfgrpo/protocol";
import { escapeXml as esc } from "../report/svg-charts.js";
import { describeTraffic, type OnlineSummary } from "./online-summary.js";

const pct = (value: number | null) => (value === null ? "-" : `${(value * 100).toFixed(1)}%`);

/** The report's section for a `tfgrpo online` run: its stored summary (windows, reflections, rollbacks). */
export function onlineReportSection(run: Run): string {
  if (run.kind !== "online" || !run.summary) return "";
  const summary = run.summary as unknown as OnlineSummary;
  if (!Array.isArray(summary.windows)) return "";
  const windows = summary.windows
    .map(
      (w) =>
        `<tr><td class="n">${w.from}–${w.to}</td><td class="n">${w.successes}/${w.served}</td><td class="n">${pct(w.served ? w.successes / w.served : null)}</td></tr>`,
    )
    .join("");
  const reflections = summary.reflections
    .map(
      (r) =>
        `<tr><td class="n">${r.at}</td><td>${esc(r.reason)}</td><td class="n">${pct(r.windowRate)}</td><td class="n">${r.groups}</td><td class="n">${r.proposals}</td><td>${r.version === null ? "no change" : `v${r.version}`}</td></tr>`,
    )
    .join("");
  const rollbacks = summary.rollbacks
    .map(
      (r) =>
        `<tr><td class="n">${r.at}</td><td>${esc(r.stage)}</td><td>v${r.from}</td><td>${r.to === null ? "empty library" : `v${r.to}`}</td><td class="n">${pct(r.servedRate)}</td><td class="n">${pct(r.referenceRate)}</td></tr>`,
    )
    .join("");
  return `<h2>Online session</h2><p id="online-summary">served ${summary.served} tasks, ${summary.successes} successes; head at the end: ${summary.head === null ? "none" : `v${summary.head}`}</p>
${summary.traffic ? `<p id="online-traffic">domain traffic (every process): ${esc(describeTraffic(summary.traffic))}</p>` : ""}
<table id="online-windows"><tr><th>tasks</th><th>successes</th><th>rate</th></tr>${windows}</table>
<table id="online-reflections"><tr><th>after outcome</th><th>trigger</th><th>window success</th><th>groups</th><th>proposals</th><th>version</th></tr>${reflections}</table>
${rollbacks ? `<table id="online-rollbacks"><tr><th>after outcome</th><th>stage</th><th>from</th><th>to</th><th>served</th><th>reference</th></tr>${rollbacks}</table>` : "<p>No rollbacks.</p>"}`;
}
