import type { Run } from "@tfgrpo/protocol";
import type { DomainSummary } from "@tfgrpo/store";
import { type Html, html } from "../html.js";
import { type Flash, layout } from "./layout.js";

export interface DomainRow {
  summary: DomainSummary;
  lastRun: Run | null;
}

/** Every domain: its head version, entries of the head by lifecycle state, and its last run. */
export function domainsPage(rows: readonly DomainRow[], csrf: string, flash?: Flash): Html {
  const body =
    rows.length === 0
      ? html`<p>No libraries yet. Run <code>tfgrpo learn</code> or import one (<code>tfgrpo library import</code>).</p>`
      : html`<table class="grid">
<thead><tr><th>domain</th><th>head</th><th>versions</th><th>active</th><th>candidate</th><th>probation</th><th>archived</th><th>last run</th><th></th></tr></thead>
<tbody>${rows.map(
          ({ summary, lastRun }) => html`<tr data-domain="${summary.domain}">
<td><a href="/d/${summary.domain}">${summary.domain}</a></td>
<td class="head">${summary.head === null ? "—" : `v${summary.head}`}</td>
<td>${summary.versions}</td>
<td>${summary.headCounts.active}</td><td>${summary.headCounts.candidate}</td>
<td>${summary.headCounts.probation}</td><td>${summary.headCounts.archived}</td>
<td>${lastRun ? html`<a href="/runs/${lastRun.id}">${lastRun.id}</a> ${lastRun.kind}, ${lastRun.status}, ${lastRun.startedAt.slice(0, 16).replace("T", " ")}` : "—"}</td>
<td><a href="/d/${summary.domain}/review">review queue</a></td>
</tr>`,
        )}</tbody></table>`;
  return layout({ title: "Libraries", csrf, live: "all", flash }, body);
}
