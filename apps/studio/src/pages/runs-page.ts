import type { LibraryVersion, Run } from "@tfgrpo/protocol";
import { type Html, html } from "../html.js";
import type { StepRow } from "../run-steps.js";
import { formatNumber, layout } from "./layout.js";

export function runsPage(runs: readonly Run[], csrf: string): Html {
  const body = runs.length
    ? html`<table class="grid runs"><thead><tr><th>run</th><th>kind</th><th>domain</th><th>status</th><th>started</th><th>finished</th></tr></thead><tbody>${runs.map(
        (run) =>
          html`<tr><td><a href="/runs/${run.id}">${run.id}</a></td><td>${run.kind}</td><td><a href="/d/${run.domain}">${run.domain}</a></td><td>${run.status}</td><td>${run.startedAt.slice(0, 19).replace("T", " ")}</td><td>${run.finishedAt?.slice(0, 19).replace("T", " ") ?? "—"}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No runs yet.</p>`;
  return layout({ title: "Runs", csrf, live: "all" }, body);
}

export interface RunPageData {
  run: Run;
  steps: readonly StepRow[];
  /** The versions this run wrote, with the gate's decisions. */
  versions: readonly LibraryVersion[];
  hasReport: boolean;
  csrf: string;
}

const score = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : formatNumber(value, 3);

/** One run: its step table, the gate's decision on each version it proposed, and its HTML report. */
export function runPage(data: RunPageData): Html {
  const { run } = data;
  const body = html`<p class="meta">${run.kind} run on <a href="/d/${run.domain}">${run.domain}</a>, ${run.status}; started ${run.startedAt.slice(0, 19).replace("T", " ")}${run.finishedAt ? `, finished ${run.finishedAt.slice(0, 19).replace("T", " ")}` : ""}${run.config.simulated ? " — SIMULATED world" : ""}.</p>
<h2>Steps</h2>
${
  data.steps.length
    ? html`<table class="grid steps"><thead><tr><th>epoch</th><th>step</th><th>tasks</th><th>rollouts</th><th>train reward</th><th>groups (skipped)</th><th>proposals</th><th>operations</th><th>head before</th><th>candidate</th><th>head after</th><th>library</th><th>candidate score</th><th>head score</th><th>decision</th><th>reason</th></tr></thead><tbody>${data.steps.map(
        (step) =>
          html`<tr><td>${step.epoch}</td><td>${step.step}</td><td>${step.tasks}</td><td>${step.rollouts}</td><td>${score(step.trainReward)}</td><td>${step.groups} (${step.skippedGroups})</td><td>${step.proposals}</td><td>${step.operations}</td><td>${step.headBefore ?? "—"}</td><td>${step.candidateVersion ?? "—"}</td><td>${step.headAfter ?? "—"}</td><td>${step.librarySize}</td><td>${score(step.candidateScore)}</td><td>${score(step.headScore)}</td><td>${step.decision}</td><td>${step.gateReason}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No step records (not a learning run, or it has not finished a step).</p>`
}
<h2>Gate decisions</h2>
${
  data.versions.length
    ? html`<table class="grid gates"><thead><tr><th>version</th><th>state</th><th>decision</th><th>candidate</th><th>head</th><th>tasks</th><th>reason</th></tr></thead><tbody>${data.versions.map(
        (version) =>
          html`<tr><td><a href="/d/${run.domain}/diff?from=${version.parent ?? ""}&amp;to=${version.version}">v${version.version}</a></td><td>${version.state}</td><td>${version.gate?.decision ?? "—"}</td><td>${score(version.gate?.candidateScore)}</td><td>${score(version.gate?.headScore)}</td><td>${version.gate?.tasks ?? "—"}</td><td>${version.gate?.reason ?? version.message ?? ""}</td></tr>`,
      )}</tbody></table>`
    : html`<p>This run wrote no library versions.</p>`
}
${
  data.hasReport
    ? html`<h2>Report</h2><p><a href="/runs/${run.id}/report" target="_blank" rel="noopener">Open the report in its own tab</a></p>
<iframe class="report" src="/runs/${run.id}/report" title="report of ${run.id}" sandbox></iframe>`
    : null
}`;
  return layout({ title: `Run ${run.id}`, csrf: data.csrf, domain: run.domain }, body);
}
