import type { LibraryVersion } from "@tfgrpo/protocol";
import { type Html, html } from "../html.js";
import { type Flash, formGuard, layout } from "./layout.js";

export interface VersionsPageData {
  domain: string;
  versions: readonly LibraryVersion[];
  head: number | null;
  csrf: string;
  flash?: Flash | undefined;
}

/** Every version of a library, newest first: what made it, the gate's decision, a diff, and a rollback. */
export function versionsPage(data: VersionsPageData): Html {
  const { domain } = data;
  const base = `/d/${domain}`;
  const rows = [...data.versions].reverse().map((version) => {
    const isHead = version.version === data.head;
    return html`<tr id="v${version.version}" class="${version.state}${isHead ? " head" : ""}">
<td><a href="${base}?v=${version.version}">v${version.version}</a>${isHead ? " (head)" : ""}</td>
<td>${version.state}</td>
<td>${version.parent === null ? "—" : html`<a href="${base}/diff?from=${version.parent}&amp;to=${version.version}">diff to v${version.parent}</a>`}</td>
<td>${version.runId ? html`<a href="/runs/${version.runId}">${version.runId}</a>` : "person / import"}</td>
<td>${version.message ?? ""}</td>
<td>${version.gate ? html`${version.gate.decision}: ${version.gate.reason}` : ""}</td>
<td>${
      version.state === "committed" && !isHead
        ? html`<form method="post" action="${base}/actions/rollback" class="rollback">${formGuard(data.csrf, data.head)}<input type="hidden" name="toVersion" value="${version.version}"><input type="hidden" name="return" value="${base}/versions"><input name="note" type="text" aria-label="note for the rollback to v${version.version}" placeholder="why"><button type="submit">Roll back to v${version.version}</button></form>`
        : ""
    }</td></tr>`;
  });
  const body = html`<p class="meta">A rollback commits a new version equal to the one chosen; nothing is deleted.</p>
<table class="grid versions"><thead><tr><th>version</th><th>state</th><th>diff</th><th>made by</th><th>message</th><th>gate</th><th>rollback</th></tr></thead><tbody>${rows}</tbody></table>`;
  return layout(
    {
      title: `${domain} versions`,
      csrf: data.csrf,
      domain,
      head: data.head,
      live: "domain",
      flash: data.flash,
    },
    body,
  );
}
