import type { LibraryVersion } from "@tfgrpo/protocol";
import type { ExperienceChange, LibraryDiff } from "@tfgrpo/store";
import { type Html, html } from "../html.js";
import { type DiffSegment, wordDiff } from "../word-diff.js";
import { layout } from "./layout.js";

export interface MergeRecord {
  version: number;
  sources: string[];
  /** The entry the merge created, when it could be found in the target version. */
  into: string | null;
  text: string;
  reason: string;
}

export interface DiffPageData {
  domain: string;
  diff: LibraryDiff;
  merges: readonly MergeRecord[];
  versions: readonly LibraryVersion[];
  head: number | null;
  csrf: string;
}

export function renderWordDiff(segments: readonly DiffSegment[]): Html {
  return html`${segments.map((segment, index) => {
    const space = index > 0 ? " " : "";
    if (segment.kind === "same") return html`${space}${segment.text}`;
    if (segment.kind === "added") return html`${space}<ins>${segment.text}</ins>`;
    return html`${space}<del>${segment.text}</del>`;
  })}`;
}

const none = html`<p class="meta">None.</p>`;
const name = (version: number | null) => (version === null ? "empty" : `v${version}`);

/** Two versions side by side: entries added, modified (word by word), archived or removed, and merges between them. */
export function diffPage(data: DiffPageData): Html {
  const { domain, diff } = data;
  const base = `/d/${domain}`;
  const link = (change: ExperienceChange) => html`<a href="${base}/e/${change.id}">${change.id}</a>`;
  const select = (field: "from" | "to", selected: number | null) =>
    html`<label>${field} <select name="${field}">${field === "from" ? html`<option value=""${selected === null ? html` selected` : ""}>empty</option>` : null}${data.versions.map(
      (version) =>
        html`<option value="${version.version}"${version.version === selected ? html` selected` : ""}>v${version.version} (${version.state})</option>`,
    )}</select></label>`;
  const modified = diff.changed.map((change) => {
    const before = change.before!;
    const after = change.after!;
    const notes = change.fields
      .filter((field) => field !== "text")
      .map((field) => {
        const value = (entry: typeof before) =>
          field === "scope" ? JSON.stringify(entry.scope ?? {}) : String(entry[field] ?? "none");
        return html`<div class="field">${field}: ${value(before)} → ${value(after)}</div>`;
      });
    return html`<li class="modified">${link(change)} ${
      change.fields.includes("text")
        ? html`<div class="wdiff">${renderWordDiff(wordDiff(before.text, after.text))}</div>`
        : html`<div>${after.text}</div>`
    }${notes}</li>`;
  });
  const body = html`<form method="get" action="${base}/diff" class="diff-select">${select("from", diff.from)} ${select("to", diff.to)} <button type="submit">Compare</button></form>
<p class="meta">From ${name(diff.from)} to ${name(diff.to)}: ${diff.added.length} added, ${diff.changed.length} modified, ${diff.removed.length} archived or removed, ${data.merges.length} merges.</p>
<h2>Added</h2>
${diff.added.length === 0 ? none : null}<ul class="added">${diff.added.map((change) => html`<li>${link(change)} <span class="status">${change.after?.status}</span> <ins>${change.after?.text}</ins></li>`)}</ul>
<h2>Modified</h2>
${modified.length === 0 ? none : null}<ul>${modified}</ul>
<h2>Archived or removed</h2>
${diff.removed.length === 0 ? none : null}<ul class="removed">${diff.removed.map(
    (change) =>
      html`<li>${link(change)} <del>${change.before?.text}</del>${
        change.after
          ? html` <span class="status">${change.before?.status} → ${change.after.status}</span> ${change.after.history.at(-1)?.reason ?? ""}`
          : " (not in this version)"
      }</li>`,
  )}</ul>
<h2>Merged</h2>
${data.merges.length === 0 ? none : null}<ul class="merged">${data.merges.map(
    (merge) =>
      html`<li>v${merge.version}: ${merge.sources.join(" + ")} → ${merge.into ? html`<a href="${base}/e/${merge.into}">${merge.into}</a>` : "a new entry"}: ${merge.text} <span class="reason">(${merge.reason})</span></li>`,
  )}</ul>`;
  return layout(
    { title: `${domain}: ${name(diff.from)} → ${name(diff.to)}`, csrf: data.csrf, domain, head: data.head },
    body,
  );
}
