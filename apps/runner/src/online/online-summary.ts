import type { LibraryVersion } from "@tfgrpo/protocol";
import type { OnlineEvent } from "@tfgrpo/serving";
import type { ServedRecord } from "./online-session.js";

export interface OnlineSummary {
  served: number;
  successes: number;
  /** Successes per window of `windowSize` served tasks, in serving order. */
  windows: { from: number; to: number; served: number; successes: number }[];
  reflections: {
    at: number;
    reason: string;
    windowRate: number | null;
    groups: number;
    proposals: number;
    version: number | null;
  }[];
  /** The versions this session wrote, with the decision on each. */
  versions: {
    version: number;
    parent: number | null;
    state: string;
    decision: string | null;
    candidateScore: number | null;
    headScore: number | null;
    tasks: number | null;
    reason: string | null;
  }[];
  rollbacks: {
    at: number;
    stage: string;
    from: number;
    to: number | null;
    restoredAs: number | null;
    servedRate: number;
    referenceRate: number;
  }[];
  head: number | null;
  /**
   * The domain's traffic in the store at the end (every process's, compacted rows included): a selection not
   * reported within the report deadline is "no report", its own count, never a failure.
   */
  traffic?: {
    served: number;
    reported: number;
    successes: number;
    noReport: number;
    awaiting: number;
    compacted: number;
  };
}

/** The numbers of a session, for the terminal, `--json` and the run record (which `report` reads). */
export function summarizeOnlineSession(input: {
  served: readonly ServedRecord[];
  events: readonly OnlineEvent[];
  versions: readonly LibraryVersion[];
  runId: string;
  head: number | null;
  windowSize?: number;
  /** The store's `outcomeStats` of the domain. */
  traffic?: OnlineSummary["traffic"];
}): OnlineSummary {
  const size = input.windowSize ?? 25;
  const windows: OnlineSummary["windows"] = [];
  for (let from = 0; from < input.served.length; from += size) {
    const slice = input.served.slice(from, from + size);
    windows.push({
      from: from + 1,
      to: from + slice.length,
      served: slice.length,
      successes: slice.filter((record) => record.success).length,
    });
  }
  const reflections: OnlineSummary["reflections"] = [];
  const rollbacks: OnlineSummary["rollbacks"] = [];
  for (const event of input.events) {
    if (event.type === "reflection")
      reflections.push({
        at: event.at,
        reason: event.reason,
        windowRate: event.windowRate,
        groups: event.groups,
        proposals: event.proposals,
        version: event.version,
      });
    if (event.type === "rollback")
      rollbacks.push({
        at: event.at,
        stage: event.stage,
        from: event.from,
        to: event.to,
        restoredAs: event.restoredAs,
        servedRate: event.servedRate,
        referenceRate: event.referenceRate,
      });
  }
  return {
    served: input.served.length,
    successes: input.served.filter((record) => record.success).length,
    windows,
    reflections,
    versions: input.versions
      .filter((version) => version.runId === input.runId)
      .map((version) => ({
        version: version.version,
        parent: version.parent,
        state: version.state,
        decision: version.gate?.decision ?? null,
        candidateScore: version.gate?.candidateScore ?? null,
        headScore: version.gate?.headScore ?? null,
        tasks: version.gate?.tasks ?? null,
        reason: version.gate?.reason ?? version.message ?? null,
      })),
    rollbacks,
    head: input.head,
    ...(input.traffic
      ? {
          traffic: {
            served: input.traffic.served,
            reported: input.traffic.reported,
            successes: input.traffic.successes,
            noReport: input.traffic.noReport,
            awaiting: input.traffic.awaiting,
            compacted: input.traffic.compacted,
          },
        }
      : {}),
  };
}

/** "served 120, reported 100 (40 successes), no report 15, awaiting 5": the store's counts of a domain. */
export function describeTraffic(traffic: NonNullable<OnlineSummary["traffic"]>): string {
  return `served ${traffic.served}, reported ${traffic.reported} (${traffic.successes} successes), no report ${traffic.noReport} (not failures), awaiting a report ${traffic.awaiting}${traffic.compacted > 0 ? `; ${traffic.compacted} compacted by retention` : ""}`;
}

const pct = (value: number | null) => (value === null ? "-" : `${(value * 100).toFixed(0)}%`);

/** The summary as the terminal shows it. */
export function renderOnlineSummary(summary: OnlineSummary): string {
  const lines = [
    `served ${summary.served} tasks, ${summary.successes} successes (${pct(summary.served ? summary.successes / summary.served : null)})`,
    `successes per window: ${summary.windows.map((w) => `${w.from}-${w.to}: ${w.successes}/${w.served}`).join(", ")}`,
    `reflections: ${summary.reflections.length}${summary.reflections.length ? ` (${summary.reflections.map((r) => `#${r.at} ${r.reason}${r.windowRate === null ? "" : ` at ${pct(r.windowRate)}`} -> ${r.version === null ? "no change" : `v${r.version}`}`).join("; ")})` : ""}`,
    "versions:",
    ...summary.versions.map(
      (v) =>
        `  v${v.version} (parent ${v.parent === null ? "empty" : `v${v.parent}`}): ${v.state}${v.decision ? `, gate ${v.decision} ${pct(v.candidateScore)} vs ${pct(v.headScore)} on ${v.tasks} tasks` : ""}${v.reason ? ` — ${v.reason}` : ""}`,
    ),
    `rollbacks: ${summary.rollbacks.length}${summary.rollbacks.length ? ` (${summary.rollbacks.map((r) => `#${r.at} ${r.stage} v${r.from} -> ${r.to === null ? "empty" : `v${r.to}`}: ${pct(r.servedRate)} vs ${pct(r.referenceRate)}`).join("; ")})` : ""}`,
    `head: ${summary.head === null ? "none" : `v${summary.head}`}`,
    ...(summary.traffic ? [`domain traffic (every process): ${describeTraffic(summary.traffic)}`] : []),
  ];
  return `${lines.join("\n")}\n`;
}
