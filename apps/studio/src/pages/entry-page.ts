import {
  contrastEstimate,
  type Experience,
  entryContrast,
  type LibraryVersion,
  type Operation,
} from "@tfgrpo/protocol";
import type { VersionContrast } from "@tfgrpo/store";
import { type Html, html, raw } from "../html.js";
import { wordDiff } from "../word-diff.js";
import { contrastMarkup } from "./contrast-markup.js";
import { renderWordDiff } from "./diff-page.js";
import { type Flash, formatNumber, formGuard, layout } from "./layout.js";

export interface EntryEvent {
  version: LibraryVersion;
  operation: Operation;
  /** The entry's text before this operation rewrote it (for the word diff), if it did. */
  textBefore?: string;
}

export interface EntryPageData {
  domain: string;
  entry: Experience;
  head: number | null;
  /** Every operation of every version that named this entry, oldest first. */
  events: readonly EntryEvent[];
  /** The entry's contrast split by the library version its rollouts read, oldest first. */
  versionContrasts: readonly VersionContrast[];
  csrf: string;
  wordLimit: number;
  /** A text the person submitted that was refused: shown again in the form so nothing they typed is lost. */
  draft?: string | undefined;
  flash?: Flash | undefined;
}

function describe(operation: Operation, id: string): string {
  switch (operation.op) {
    case "modify": {
      const parts = [
        operation.text !== undefined ? "text rewritten" : null,
        operation.status !== undefined ? `status → ${operation.status}` : null,
        operation.conflictGroup === null ? "left its conflict group" : null,
        typeof operation.conflictGroup === "string" ? `conflict group → ${operation.conflictGroup}` : null,
        operation.scope !== undefined ? "scope changed" : null,
      ];
      return `modify: ${parts.filter(Boolean).join(", ")}`;
    }
    case "merge":
      return operation.ids.includes(id)
        ? `merged (with ${operation.ids.filter((x) => x !== id).join(", ")}) into a new entry`
        : `created by merging ${operation.ids.join(", ")}`;
    case "delete":
      return "archived";
    case "keep":
      return "kept";
    case "add":
      return "added";
  }
}

/** One entry: where it came from, every operation and lifecycle move with its reason, and (at the head) an edit form. */
export function entryPage(data: EntryPageData): Html {
  const { domain, entry } = data;
  const base = `/d/${domain}`;
  const provenance = entry.provenance;
  const editable = entry.status !== "archived";
  const body = html`<article class="entry" id="entry-${entry.id}">
<blockquote class="lesson">${entry.text}</blockquote>
<dl class="facts">
<dt>status</dt><dd>${entry.status}</dd>
<dt>conflict group</dt><dd>${entry.conflictGroup ?? "none"}</dd>
<dt>stats</dt><dd>shown ${entry.stats.shown}, success ${formatNumber(entry.stats.shown ? entry.stats.success / entry.stats.shown : 0)}, last used in ${entry.stats.lastUsedVersion === null ? "—" : `v${entry.stats.lastUsedVersion}`}</dd>
<dt>credit</dt><dd class="credit">${raw(contrastMarkup(entryContrast(entry.stats)))} <span class="meta">(contrast: mean reward of the attempts shown this entry minus those of the same groups it was withheld from)</span></dd>
<dt>created</dt><dd>in <a href="${base}?v=${provenance.version}">v${provenance.version}</a>${provenance.runId ? html` by run <a href="/runs/${provenance.runId}">${provenance.runId}</a>` : " by hand or import"}${provenance.fromOps.length ? html`, from: ${provenance.fromOps.join("; ")}` : ""} (${entry.createdAt.slice(0, 19).replace("T", " ")})</dd>
${entry.scope?.when ? html`<dt>applies when</dt><dd>${entry.scope.when}</dd>` : null}
${entry.scope?.whenNot ? html`<dt>not when</dt><dd>${entry.scope.whenNot}</dd>` : null}
</dl>
</article>
<h2>Credit by library version</h2>
${
  data.versionContrasts.length === 0
    ? html`<p class="meta" id="no-version-credit">No contrast recorded yet: the entry has not been shown to some attempts of a group and withheld from the others.</p>`
    : html`<table class="grid version-credit"><thead><tr><th>version read</th><th>credit: contrast [interval]</th></tr></thead><tbody>
${data.versionContrasts.map(
  (row) =>
    html`<tr><td><a href="${base}?v=${row.version}">v${row.version}</a></td><td class="credit">${raw(contrastMarkup(contrastEstimate(row.contrast)))}</td></tr>`,
)}</tbody></table>`
}
<h2>Lifecycle</h2>
<table class="grid history"><thead><tr><th>version</th><th>at</th><th>move</th><th>reason</th></tr></thead><tbody>
${entry.history.map(
  (event) =>
    html`<tr><td><a href="${base}?v=${event.version}">v${event.version}</a></td><td>${event.at.slice(0, 19).replace("T", " ")}</td><td>${event.from ?? "new"} → ${event.to}</td><td>${event.reason}</td></tr>`,
)}</tbody></table>
<h2>Operations</h2>
<table class="grid operations"><thead><tr><th>version</th><th>state</th><th>by</th><th>operation</th><th>reason</th></tr></thead><tbody>
${data.events.map(
  ({ version, operation, textBefore }) =>
    html`<tr><td><a href="${base}/diff?from=${version.parent ?? ""}&amp;to=${version.version}">v${version.version}</a></td><td>${version.state}</td><td>${version.runId ? html`<a href="/runs/${version.runId}">${version.runId}</a>` : "person / import"}</td><td>${describe(operation, entry.id)}${
      textBefore !== undefined && "text" in operation && operation.text !== undefined
        ? html`<div class="wdiff">${renderWordDiff(wordDiff(textBefore, operation.text))}</div>`
        : null
    }</td><td>${operation.reason}</td></tr>`,
)}</tbody></table>
${
  editable
    ? html`<h2>Edit</h2>
<form method="post" action="${base}/actions/edit" class="edit-form">
${formGuard(data.csrf, data.head)}<input type="hidden" name="id" value="${entry.id}"><input type="hidden" name="return" value="${base}/e/${entry.id}">
<label for="edit-text">Lesson (at most ${data.wordLimit} words)</label>
<textarea id="edit-text" name="text" rows="3" data-word-limit="${data.wordLimit}">${data.draft ?? entry.text}</textarea>
<label for="edit-note">Note (the reason kept in the history)</label>
<input id="edit-note" name="note" type="text" placeholder="why this change">
<button type="submit">Save as a new version</button>
</form>`
    : html`<p>This entry is archived: it is kept with its history and never shown to actors.</p>`
}`;
  return layout(
    {
      title: `${domain} ${entry.id}`,
      csrf: data.csrf,
      domain,
      head: data.head,
      live: "domain",
      flash: data.flash,
    },
    body,
  );
}
