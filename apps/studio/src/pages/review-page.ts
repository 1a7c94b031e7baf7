import { type Experience, entryContrast } from "@tfgrpo/protocol";
import { type Html, html, raw } from "../html.js";
import { contrastMarkup } from "./contrast-markup.js";
import { type Flash, formatNumber, formGuard, layout } from "./layout.js";

export interface CheckFailure {
  entry: Experience;
  problem: string;
}

export interface ReviewPageData {
  domain: string;
  head: number | null;
  candidates: readonly Experience[];
  conflictGroups: ReadonlyArray<{ name: string; members: readonly Experience[] }>;
  /** Live entries the curator's checks would refuse today (over the word limit, too vague). */
  failures: readonly CheckFailure[];
  wordLimit: number;
  csrf: string;
  flash?: Flash | undefined;
  /** Merge fields to show again after a refusal. */
  mergeDraft?: { ids: string; text: string } | undefined;
}

/** What the evidence says of an entry: its showings, success and credit (the contrast with its interval). */
const stats = (entry: Experience) =>
  html`<span class="stats">shown ${entry.stats.shown}, success ${formatNumber(entry.stats.shown ? entry.stats.success / entry.stats.shown : 0)}, credit ${raw(contrastMarkup(entryContrast(entry.stats)))}</span>`;

/**
 * The review queue: candidates awaiting promotion, conflict groups the curator flagged for a person, entries the
 * curator's checks refuse, and a merge form. Every item is focusable; j/k move between items, a approves, r rejects
 * (assets/studio.js). Every action goes through the curator and commits a version with the note as its reason.
 */
export function reviewPage(data: ReviewPageData): Html {
  const { domain } = data;
  const base = `/d/${domain}`;
  const guard = formGuard(data.csrf, data.head);
  const back = html`<input type="hidden" name="return" value="${base}/review">`;
  const candidates = data.candidates.map(
    (
      entry,
    ) => html`<article class="queue-item candidate" tabindex="0" id="q-${entry.id}" data-id="${entry.id}" aria-label="candidate ${entry.id}">
<p><a href="${base}/e/${entry.id}">${entry.id}</a> <span class="lesson">${entry.text}</span></p>
<p class="meta">${stats(entry)}${entry.conflictGroup ? `; conflict group ${entry.conflictGroup}` : ""}</p>
<form method="post" action="${base}/actions/approve">${guard}${back}<input type="hidden" name="id" value="${entry.id}">
<input name="note" type="text" aria-label="note for ${entry.id}" placeholder="note (kept as the reason)">
<button type="submit" data-key="a">Approve</button>
<button type="submit" formaction="${base}/actions/reject" data-key="r">Reject</button>
</form></article>`,
  );
  const groups = data.conflictGroups.map(
    (
      group,
    ) => html`<article class="queue-item conflict" tabindex="0" id="g-${group.name}" data-group="${group.name}" aria-label="conflict group ${group.name}">
<p>Conflict group <strong>${group.name}</strong>: the actor shows at most one of these; decide which stays.</p>
<form method="post" action="${base}/actions/resolve">${guard}${back}<input type="hidden" name="group" value="${group.name}">
<ul>${group.members.map(
      (
        entry,
      ) => html`<li><a href="${base}/e/${entry.id}">${entry.id}</a> (${entry.status}; ${stats(entry)}) <span class="lesson">${entry.text}</span>
<button type="submit" name="keep" value="${entry.id}">Keep ${entry.id}, archive the others</button></li>`,
    )}</ul>
<input name="note" type="text" aria-label="note for ${group.name}" placeholder="note (kept as the reason)">
<button type="submit" name="keep" value="" data-key="n">Not a conflict: keep all</button>
</form></article>`,
  );
  const failures = data.failures.map(
    ({
      entry,
      problem,
    }) => html`<article class="queue-item refused" tabindex="0" id="f-${entry.id}" data-id="${entry.id}">
<p><a href="${base}/e/${entry.id}">${entry.id}</a> <span class="lesson">${entry.text}</span></p>
<p class="meta">${problem} — <a href="${base}/e/${entry.id}#edit-text">edit it</a></p></article>`,
  );
  const body = html`<p class="meta">Head ${data.head === null ? "none" : `v${data.head}`}. Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous item, <kbd>a</kbd> approve, <kbd>r</kbd> reject, <kbd>n</kbd> not a conflict; <kbd>Tab</kbd> reaches every button.</p>
<section id="candidates" aria-labelledby="h-candidates"><h2 id="h-candidates">Candidates awaiting promotion (${data.candidates.length})</h2>
${candidates.length ? candidates : html`<p>None.</p>`}</section>
<section id="conflicts" aria-labelledby="h-conflicts"><h2 id="h-conflicts">Conflict groups flagged for a person (${data.conflictGroups.length})</h2>
${groups.length ? groups : html`<p>None.</p>`}</section>
<section id="refused" aria-labelledby="h-refused"><h2 id="h-refused">Entries the curator's checks refuse (${data.failures.length})</h2>
<p class="meta">Live entries over the ${data.wordLimit}-word limit or too vague to act on (e.g. imported by hand). Lessons the curator refused during a run are not stored; they are in that run's log.</p>
${failures.length ? failures : html`<p>None.</p>`}</section>
<section id="merge" aria-labelledby="h-merge"><h2 id="h-merge">Merge two entries</h2>
<form method="post" action="${base}/actions/merge">${guard}${back}
<label>Entries <input name="ids" type="text" placeholder="G3 G7" value="${data.mergeDraft?.ids ?? ""}" required></label>
<label>Merged lesson (at most ${data.wordLimit} words) <textarea name="text" rows="2" required>${data.mergeDraft?.text ?? ""}</textarea></label>
<input name="note" type="text" aria-label="note for the merge" placeholder="note (kept as the reason)">
<button type="submit">Merge</button></form></section>`;
  return layout(
    {
      title: `${domain} review queue`,
      csrf: data.csrf,
      domain,
      head: data.head,
      live: "domain",
      flash: data.flash,
    },
    body,
  );
}
