import type { LibraryVersion } from "@tfgrpo/protocol";
import { escapeHtml, type Html, html, raw } from "../html.js";
import type { EntryRow, LibraryQuery, SortKey } from "../library-query.js";
import { contrastMarkup } from "./contrast-markup.js";
import { type Flash, formatNumber, layout } from "./layout.js";

export interface LibraryPageData {
  domain: string;
  version: LibraryVersion;
  head: number | null;
  rows: readonly EntryRow[];
  total: number;
  query: LibraryQuery;
  csrf: string;
  flash?: Flash | undefined;
}

const columns: Array<[SortKey, string]> = [
  ["id", "id"],
  ["text", "text"],
  ["status", "status"],
  ["group", "conflict group"],
  ["shown", "shown"],
  ["success", "success"],
  ["contrast", "credit: contrast [interval]"],
  ["utility", "utility"],
  ["tokens", "tokens"],
];

/** One library version as a searchable, sortable table; each id links to the entry's history. */
export function libraryPage(data: LibraryPageData): Html {
  const { domain, version, query } = data;
  const atHead = version.version === data.head;
  const base = `/d/${domain}`;
  const link = (changes: Partial<LibraryQuery>) => {
    const next = { ...query, ...changes };
    const params = new URLSearchParams();
    if (!atHead) params.set("v", String(version.version));
    if (next.q) params.set("q", next.q);
    if (next.status !== "live") params.set("status", next.status);
    if (next.sort !== "id") params.set("sort", next.sort);
    if (next.dir !== "asc") params.set("dir", next.dir);
    const search = params.toString();
    return search ? `${base}?${search}` : base;
  };
  const header = columns.map(([key, label]) => {
    const active = query.sort === key;
    const dir = active && query.dir === "asc" ? "desc" : "asc";
    return html`<th scope="col" aria-sort="${active ? (query.dir === "asc" ? "ascending" : "descending") : "none"}"><a href="${link({ sort: key, dir })}">${label}${active ? (query.dir === "asc" ? " ▲" : " ▼") : ""}</a></th>`;
  });
  // The hot path of a 10,000-entry page: one template string per row, every value escaped.
  const baseAttribute = escapeHtml(base);
  const rows = raw(
    data.rows
      .map(({ entry, successRate, contrast, utility, tokens }) => {
        const id = escapeHtml(entry.id);
        return `<tr class="${entry.status}"><td><a href="${baseAttribute}/e/${id}">${id}</a></td><td class="text">${escapeHtml(entry.text)}</td><td>${entry.status}</td><td>${escapeHtml(entry.conflictGroup ?? "")}</td><td>${entry.stats.shown}</td><td>${formatNumber(successRate)}</td><td class="credit">${contrastMarkup(contrast)}</td><td>${formatNumber(utility)}</td><td>${tokens}</td></tr>`;
      })
      .join(""),
  );
  const body = html`<p class="meta">Version v${version.version} (${version.state}${atHead ? ", head" : data.head === null ? "" : html`; the head is <a href="${base}">v${data.head}</a>`}),
created ${version.createdAt.slice(0, 19).replace("T", " ")}${version.runId ? html` by run <a href="/runs/${version.runId}">${version.runId}</a>` : ""}${version.message ? html`: ${version.message}` : ""}.</p>
<form id="filters" method="get" action="${base}" role="search" hx-get="${base}" hx-trigger="input delay:250ms, change" hx-target="#entries" hx-select="#entries" hx-swap="outerHTML" hx-push-url="true">
${atHead ? null : html`<input type="hidden" name="v" value="${version.version}">`}
<input type="hidden" name="sort" value="${query.sort}"><input type="hidden" name="dir" value="${query.dir}">
<label>Search <input type="search" name="q" value="${query.q}" placeholder="words in id, text or group" autocomplete="off"></label>
<label>Status <select name="status">${(
    ["live", "all", "active", "candidate", "probation", "archived"] as const
  ).map(
    (status) =>
      html`<option value="${status}"${status === query.status ? html` selected` : ""}>${status}</option>`,
  )}</select></label>
<button type="submit">Filter</button>
</form>
<section id="entries">
<p class="count">${data.rows.length} of ${data.total} entries</p>
<table class="grid entries"><thead><tr>${header}</tr></thead><tbody>${rows}</tbody></table>
</section>`;
  return layout(
    {
      title: `${domain} v${version.version}`,
      csrf: data.csrf,
      domain,
      head: data.head,
      live: atHead ? "domain" : "off",
      flash: data.flash,
    },
    body,
  );
}
