import { type Html, html } from "../html.js";
import { type Flash, formGuard, layout } from "./layout.js";

/** Import a library file into this domain, or download any version as JSON, plain `{"G0": ...}` or Markdown. */
export function transferPage(data: {
  domain: string;
  head: number | null;
  versions: readonly number[];
  csrf: string;
  flash?: Flash | undefined;
}): Html {
  const base = `/d/${data.domain}`;
  const body = html`<section><h2>Export</h2>
<form method="get" action="${base}/export">
<label>Version <select name="v">${[...data.versions].reverse().map((version) => html`<option value="${version}"${version === data.head ? html` selected` : ""}>v${version}${version === data.head ? " (head)" : ""}</option>`)}</select></label>
<label>Format <select name="format"><option value="json">JSON (everything: ids, statuses, stats, history)</option><option value="plain">plain {"G0": "..."}</option><option value="markdown">Markdown</option></select></label>
<button type="submit">Download</button></form></section>
<section><h2>Import</h2>
<p class="meta">Adds the file's entries to the head as a new committed version (the same as <code>tfgrpo library import</code>). The file is checked whole: a bad entry refuses it with its line.</p>
<form method="post" action="${base}/import" enctype="multipart/form-data">${formGuard(data.csrf)}
<label>File <input type="file" name="file" accept=".json,.md,.markdown,.txt"></label>
<label>Format <select name="format"><option value="auto">detect</option><option value="json">JSON</option><option value="plain">plain</option><option value="markdown">Markdown</option></select></label>
<label>Status of entries the file does not give <select name="status"><option value="candidate">candidate</option><option value="active">active</option></select></label>
<input name="note" type="text" aria-label="note for the import" placeholder="note">
<button type="submit">Import</button></form></section>`;
  return layout(
    {
      title: `${data.domain} import / export`,
      csrf: data.csrf,
      domain: data.domain,
      head: data.head,
      flash: data.flash,
    },
    body,
  );
}
