import type { LearnerLease, LearnerStore, LibraryStore, OutcomeStore } from "@tfgrpo/store";
import type { OnlineDecisionRecord } from "./learner-snapshot.js";
import { parseLearnerSnapshot } from "./learner-snapshot.js";

export interface LearnerStatus {
  domain: string;
  /** When this status was read. */
  at: string;
  /** The lease as stored; `active` is false once it ran out (the holder is gone or stopped). */
  lease: (LearnerLease & { active: boolean }) | null;
  paused: boolean;
  pausedAt: string | null;
  head: number | null;
  /** The `seq` of the last outcome learned from (null: no learner state yet). */
  cursor: number | null;
  /** Outcomes stored after the cursor (capped at 1,000: "at least"). */
  behind: number;
  outcomes: { served: number; reported: number; successes: number };
  /** The trigger's sliding window. */
  window: { outcomes: number; successRate: number | null; sinceLastReflection: number };
  canary: {
    version: number;
    parent: number | null;
    share: number;
    startedAt: string;
    deadlineAt: string;
    outcomes: number;
    headOutcomes: number;
  } | null;
  probation: { previous: number | null; versions: number[]; served: number; reference: number } | null;
  observed: number;
  reflections: number;
  /** Versions in state `proposed` (only the canary, when the learner is healthy). */
  proposed: number[];
  decisions: OnlineDecisionRecord[];
  /** The run of the learner that last wrote the state, and when. */
  runId: string | null;
  stateUpdatedAt: string | null;
}

/** The online learner of a domain as the store holds it: what `tfgrpo online status` and the studio show. */
export async function readLearnerStatus(
  store: LearnerStore &
    Pick<OutcomeStore, "countOutcomes" | "listOutcomes"> &
    Pick<LibraryStore, "getHeadVersion" | "listVersions">,
  domain: string,
  now: Date = new Date(),
): Promise<LearnerStatus> {
  const [record, head, counts, versions] = await Promise.all([
    store.getLearner(domain),
    store.getHeadVersion(domain),
    store.countOutcomes(domain),
    store.listVersions(domain),
  ]);
  const snapshot = parseLearnerSnapshot(record?.state ?? null);
  const behind = (await store.listOutcomes({ domain, after: snapshot?.cursor ?? 0, limit: 1000 })).length;
  const window = snapshot?.trigger.window ?? [];
  const lease = record?.lease ?? null;
  return {
    domain,
    at: now.toISOString(),
    lease: lease ? { ...lease, active: Date.parse(lease.expiresAt) > now.getTime() } : null,
    paused: record?.paused ?? false,
    pausedAt: record?.pausedAt ?? null,
    head,
    cursor: snapshot?.cursor ?? null,
    behind,
    outcomes: { served: counts.served, reported: counts.reported, successes: counts.successes },
    window: {
      outcomes: window.length,
      successRate: window.length === 0 ? null : window.filter(Boolean).length / window.length,
      sinceLastReflection: snapshot?.trigger.sinceLast ?? 0,
    },
    canary: snapshot?.canary
      ? {
          version: snapshot.canary.version,
          parent: snapshot.canary.parent,
          share: snapshot.canary.share,
          startedAt: snapshot.canary.startedAt,
          deadlineAt: snapshot.canary.deadlineAt,
          outcomes: snapshot.canary.outcomes,
          headOutcomes: snapshot.canary.headOutcomes,
        }
      : null,
    probation: snapshot?.probation
      ? {
          previous: snapshot.probation.previous,
          versions: snapshot.probation.versions,
          served: snapshot.probation.served.length,
          reference: snapshot.probation.reference.length,
        }
      : null,
    observed: snapshot?.observed ?? 0,
    reflections: snapshot?.reflections ?? 0,
    proposed: versions.filter((version) => version.state === "proposed").map((version) => version.version),
    decisions: snapshot?.decisions ?? [],
    runId: snapshot?.runId ?? null,
    stateUpdatedAt: record?.stateUpdatedAt ?? null,
  };
}

const pct = (value: number | null) => (value === null ? "-" : `${Math.round(value * 100)}%`);

/** The status as a few lines for the terminal. */
export function renderLearnerStatus(status: LearnerStatus): string {
  const lines = [`online learner of ${status.domain} (at ${status.at})`];
  lines.push(
    status.lease
      ? `  lease: ${status.lease.active ? "held" : "ran out"} by ${status.lease.holder} (pid ${status.lease.pid} on ${status.lease.host}), ${status.lease.active ? "until" : "at"} ${status.lease.expiresAt}`
      : "  lease: never taken (no learner has run)",
  );
  lines.push(`  learning: ${status.paused ? `PAUSED since ${status.pausedAt}` : "on"}`);
  lines.push(
    `  head: ${status.head === null ? "none (empty library)" : `v${status.head}`}; outcomes ${status.outcomes.reported} reported of ${status.outcomes.served} served`,
  );
  lines.push(
    `  cursor: ${status.cursor === null ? "-" : `#${status.cursor}`} (${status.behind >= 1000 ? "1000+" : status.behind} outcome(s) not yet learned from); observed ${status.observed}, reflections ${status.reflections}`,
  );
  lines.push(
    `  window: ${status.window.outcomes} outcome(s), success ${pct(status.window.successRate)}; ${status.window.sinceLastReflection} since the last reflection`,
  );
  lines.push(
    status.canary
      ? `  canary: v${status.canary.version} on ${status.canary.parent === null ? "the empty library" : `v${status.canary.parent}`}, share ${pct(status.canary.share)}, ${status.canary.outcomes} canary / ${status.canary.headOutcomes} head outcome(s), deadline ${status.canary.deadlineAt}`
      : "  canary: none",
  );
  if (status.probation)
    lines.push(
      `  probation: v${status.probation.versions.join(", v")} (${status.probation.served} outcome(s) against ${status.probation.reference} of ${status.probation.previous === null ? "the empty library" : `v${status.probation.previous}`})`,
    );
  if (status.proposed.length > 0) lines.push(`  proposed: v${status.proposed.join(", v")}`);
  for (const decision of status.decisions.slice(-5))
    lines.push(
      `  ${decision.time} ${decision.kind} v${decision.version}: ${decision.decision} — ${decision.reason}`,
    );
  return `${lines.join("\n")}\n`;
}
