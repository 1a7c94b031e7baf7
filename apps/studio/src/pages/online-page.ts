import type { LearnerStatus } from "@tfgrpo/serving";
import { type Html, html } from "../html.js";
import { formatNumber, layout } from "./layout.js";

export interface OnlinePageData {
  status: LearnerStatus;
  csrf: string;
}

/** The domain's online learner as the store holds it (the status `tfgrpo online status` prints). */
export function onlinePage(data: OnlinePageData): Html {
  const { status } = data;
  const base = `/d/${status.domain}`;
  const version = (v: number | null) =>
    v === null ? "the empty library" : html`<a href="${base}?v=${v}">v${v}</a>`;
  const lease = status.lease
    ? html`${status.lease.active ? "held" : "ran out"} by <code>${status.lease.holder}</code> (pid ${status.lease.pid} on ${status.lease.host}), ${status.lease.active ? "until" : "at"} ${status.lease.expiresAt}`
    : "never taken (no learner has run for this domain)";
  const canary = status.canary
    ? html`<a href="${base}?v=${status.canary.version}">v${status.canary.version}</a> on ${version(status.canary.parent)}, share ${formatNumber(status.canary.share)}: ${status.canary.outcomes} canary and ${status.canary.headOutcomes} head outcome(s); started ${status.canary.startedAt}, deadline ${status.canary.deadlineAt}`
    : "none";
  const decisions = [...status.decisions]
    .reverse()
    .map(
      (decision) =>
        html`<tr><td>${decision.time}</td><td>${decision.kind}</td><td><a href="${base}?v=${decision.version}">v${decision.version}</a></td><td>${decision.decision}</td><td>${decision.reason}</td></tr>`,
    );
  const body = html`<table class="grid online-status"><tbody>
<tr><th scope="row">lease</th><td id="online-lease">${lease}</td></tr>
<tr><th scope="row">learning</th><td id="online-paused">${status.paused ? `paused since ${status.pausedAt}` : "on"}</td></tr>
<tr><th scope="row">head</th><td>${version(status.head)}</td></tr>
<tr><th scope="row">outcomes</th><td>${status.outcomes.reported} reported of ${status.outcomes.served} served, ${status.outcomes.successes} successes</td></tr>
<tr><th scope="row">cursor</th><td>${status.cursor === null ? "—" : `#${status.cursor}`} (${status.behind >= 1000 ? "1000+" : status.behind} not yet learned from); observed ${status.observed}, reflections ${status.reflections}</td></tr>
<tr><th scope="row">window</th><td>${status.window.outcomes} outcome(s), success ${status.window.successRate === null ? "—" : formatNumber(status.window.successRate)}; ${status.window.sinceLastReflection} since the last reflection</td></tr>
<tr><th scope="row">canary</th><td id="online-canary">${canary}</td></tr>
<tr><th scope="row">probation</th><td>${status.probation ? html`v${status.probation.versions.join(", v")}: ${status.probation.served} outcome(s) against ${status.probation.reference}` : "none"}</td></tr>
<tr><th scope="row">proposed</th><td>${status.proposed.length === 0 ? "none" : status.proposed.map((v) => `v${v}`).join(", ")}</td></tr>
</tbody></table>
<h2>Last decisions</h2>
${decisions.length === 0 ? html`<p class="meta">None yet.</p>` : html`<table class="grid"><thead><tr><th>time</th><th>kind</th><th>version</th><th>decision</th><th>reason</th></tr></thead><tbody>${decisions}</tbody></table>`}
<p class="meta">Read from the store at ${status.at}. Pause or resume with <code>tfgrpo online pause|resume --domain ${status.domain}</code>.</p>`;
  return layout(
    { title: `${status.domain} online learner`, csrf: data.csrf, domain: status.domain, live: "domain" },
    body,
  );
}
