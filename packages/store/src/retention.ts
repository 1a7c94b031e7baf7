import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * Bounded growth of online traffic (issue 26, item 3): a selection not reported within the report deadline counts as
 * "no report" (marked by `expireSelections`, never a failure and never a contrast observation), and `applyRetention`
 * compacts old selections and outcomes into per-version and per-entry aggregates (`outcome_aggregates`,
 * `entry_exposure_aggregates`, store migration 6) so the totals read the same afterwards, and drops the reported
 * trajectories of old outcomes.
 *
 * What is never compacted: the latest `keepLatestOutcomes` outcomes of each domain (the trigger window, the pool the
 * groups are drawn from, a head's probation), and every outcome from the first one of a version still `proposed`
 * onwards (a running canary and the head's outcomes it is compared with), and every outcome the domain's online learner
 * has not read yet or compares its canary on (after the lower of its stored cursor and its canary's start cursor, see
 * `learnerFloor`). Credit does not read these rows (it is
 * added to the entries' stats and contrasts when an outcome is reported), so compaction changes no entry's credit.
 */
export interface RetentionPolicy {
  /** A selection not reported within this long counts as "no report" and a later report of it is refused. */
  reportDeadlineMs: number;
  /** Outcomes reported longer ago than this are compacted (unless protected, see above). */
  outcomeMaxAgeDays: number;
  /** At most this many outcome rows per domain: the oldest beyond it are compacted whatever their age. */
  maxOutcomesPerDomain: number;
  /** The latest this many outcomes of each domain are never compacted. */
  keepLatestOutcomes: number;
  /** The reported trajectory (the largest column) of outcomes older than this is dropped; the row stays. */
  trajectoryMaxAgeDays: number;
  /** Selections that expired without a report are compacted this long after they were served. */
  unreportedMaxAgeDays: number;
  /** Rows per transaction: each batch is compacted whole (aggregated and deleted together) or not at all. */
  batchSize: number;
}

export const defaultRetentionPolicy: RetentionPolicy = {
  reportDeadlineMs: 60 * 60 * 1000,
  outcomeMaxAgeDays: 30,
  maxOutcomesPerDomain: 100_000,
  keepLatestOutcomes: 2_000,
  trajectoryMaxAgeDays: 7,
  unreportedMaxAgeDays: 2,
  batchSize: 2_000,
};

/** The defaults with the given settings over them, checked (a zero or negative bound is refused). */
export function parseRetentionPolicy(input: Partial<RetentionPolicy> = {}): RetentionPolicy {
  const policy = { ...defaultRetentionPolicy, ...stripUndefined(input) };
  for (const [key, value] of Object.entries(policy)) {
    const integer = key === "maxOutcomesPerDomain" || key === "keepLatestOutcomes" || key === "batchSize";
    if (
      typeof value !== "number" ||
      !Number.isFinite(value) ||
      value <= 0 ||
      (integer && !Number.isInteger(value))
    ) {
      throw new TfgrpoError(
        "invalid_config",
        `retention setting ${key} must be a positive ${integer ? "integer" : "number"}, got ${String(value)}`,
        { details: { key, value } },
      );
    }
  }
  if (policy.keepLatestOutcomes > policy.maxOutcomesPerDomain) {
    throw new TfgrpoError(
      "invalid_config",
      `retention: keepLatestOutcomes (${policy.keepLatestOutcomes}) exceeds maxOutcomesPerDomain (${policy.maxOutcomesPerDomain})`,
      {
        details: {
          keepLatestOutcomes: policy.keepLatestOutcomes,
          maxOutcomesPerDomain: policy.maxOutcomesPerDomain,
        },
      },
    );
  }
  return policy;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface ExpireOptions {
  /** Report deadline; default the policy default (1 h). */
  deadlineMs?: number;
  now?: Date;
  /** Only selections served at or after this (the previous sweep's cutoff), so a sweep reads only new rows. */
  servedSince?: Date;
}

export interface RetentionResult {
  /** Selections marked "no report" (past their deadline) by this pass. */
  expired: number;
  /** Reported outcomes (with their selections) compacted into aggregates and deleted. */
  compactedOutcomes: number;
  /** Selections that expired without a report compacted and deleted. */
  compactedUnreported: number;
  /** Outcomes whose reported trajectory was dropped. */
  trajectoriesDropped: number;
  /** Transactions used. */
  batches: number;
}

/** Counts of one version (0: the empty library) over live rows and compacted aggregates. */
export interface VersionOutcomeStats {
  version: number | null;
  served: number;
  reported: number;
  successes: number;
  rewardSum: number;
  /** Served, not reported within the deadline (marked or not yet marked by the sweep). */
  noReport: number;
}

/** Stats of a domain's online traffic: what the summary, the report and an operator show. */
export interface OutcomeStats {
  domain: string;
  served: number;
  reported: number;
  successes: number;
  /** Served, not reported, still within the report deadline. */
  awaiting: number;
  /** Served and never reported within the deadline: its own count, never a failure. */
  noReport: number;
  /** Of `served`, how many are only in the aggregates now (compacted). */
  compacted: number;
  /** Live outcome rows (what retention bounds). */
  liveOutcomes: number;
  byVersion: VersionOutcomeStats[];
}

export interface OutcomeStatsOptions {
  /** Default: the policy default (1 h). */
  reportDeadlineMs?: number;
  now?: Date;
}

/** Per entry and version: exposure of compacted selections. */
export interface EntryExposureAggregate {
  entryId: string;
  version: number | null;
  shown: number;
  explored: number;
  withheld: number;
  reported: number;
  rewardSum: number;
}

/** The store side of deadlines and retention; both backends implement it. */
export interface RetentionStore {
  /** Marks selections past their report deadline as "no report"; returns how many it marked. */
  expireSelections(options?: ExpireOptions): Promise<number>;
  /**
   * Expires, compacts and trims by the policy, in batches of `batchSize` rows, each one transaction (aggregates added
   * and rows deleted together; a failure leaves every earlier batch done and no half-written one).
   */
  applyRetention(policy: Partial<RetentionPolicy>, now?: Date): Promise<RetentionResult>;
  /** Counts of a domain's traffic, live rows and aggregates together. */
  outcomeStats(domain: string, options?: OutcomeStatsOptions): Promise<OutcomeStats>;
  /** The compacted exposure of a domain's entries. */
  listEntryExposure(domain: string): Promise<EntryExposureAggregate[]>;
}

/** The ISO cut-off `days` before `now`. */
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}

/** The refusal of a report that arrives after its selection's deadline. */
export function pastDeadline(selectionId: string, servedAt: string, deadline: string): TfgrpoError {
  return new TfgrpoError(
    "conflict",
    `selection ${selectionId} (served ${servedAt}) was not reported within its report deadline (${deadline}); it counts as no report and this late report is not stored`,
    { details: { selectionId, servedAt, deadline } },
  );
}

/** "1 h", "90 s": a deadline for messages. */
export function formatDeadline(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}

/** The ISO time a deadline of `ms` cuts at, from `now`. */
export function deadlineCutoff(now: Date, ms: number): string {
  return new Date(now.getTime() - ms).toISOString();
}

/** The version key of the aggregates: 0 stands for the empty library (null). */
export const versionKey = (version: number | null): number => version ?? 0;
export const versionOfKey = (key: number): number | null => (key === 0 ? null : key);

/** The few statements retention needs, per backend; `runRetention` is the algorithm over them. */
export interface RetentionTables {
  /** Domains with outcome rows. */
  outcomeDomains(): Promise<string[]>;
  /** The seq of the `rank`-th latest outcome of a domain (1: the latest); null when it has fewer. */
  seqAtRank(domain: string, rank: number): Promise<number | null>;
  /** The first outcome of a version still `proposed` (a canary), null when none. */
  firstProposedSeq(domain: string): Promise<number | null>;
  /** The domain's online learner's stored state (`online_learners.state`, JSON), null when it has none. */
  learnerState(domain: string): Promise<string | null>;
  /** Selection ids of up to `limit` outcomes with seq < `before` and (reported before `olderThan` or seq < `capBefore`). */
  outcomeCandidates(
    domain: string,
    before: number,
    olderThan: string,
    capBefore: number | null,
    limit: number,
  ): Promise<string[]>;
  /** Selection ids of up to `limit` expired (never reported) selections served before `servedBefore`. */
  expiredCandidates(servedBefore: string, limit: number): Promise<string[]>;
  /** In one transaction: adds the selections (and their outcomes) that still exist to the aggregates, deletes them. */
  compact(selectionIds: readonly string[]): Promise<number>;
  /** Drops the trajectory of up to `limit` outcomes with seq < `before` reported before `olderThan`. */
  dropTrajectories(domain: string, before: number, olderThan: string, limit: number): Promise<number>;
  /** Marks up to `limit` unreported selections served before `cutoff` (and at or after `since`) as expired at `at`. */
  expire(cutoff: string, since: string | null, at: string, limit: number): Promise<number>;
}

/** Expires selections past the deadline, in batches; returns how many were marked. */
export async function runExpiry(tables: RetentionTables, options: ExpireOptions & { batchSize?: number }) {
  const now = options.now ?? new Date();
  const cutoff = deadlineCutoff(now, options.deadlineMs ?? defaultRetentionPolicy.reportDeadlineMs);
  const since = options.servedSince ? options.servedSince.toISOString() : null;
  const limit = options.batchSize ?? defaultRetentionPolicy.batchSize;
  let total = 0;
  let batches = 0;
  for (;;) {
    const marked = await tables.expire(cutoff, since, now.toISOString(), limit);
    total += marked;
    batches++;
    if (marked < limit) return { expired: total, batches };
  }
}

/**
 * The first outcome seq the domain's learner still needs: the one after its cursor (outcomes it has not learned from
 * yet), or after its canary's start cursor (the canary's and the head's outcomes since, which a learner that takes
 * over reads back). Null when there is no learner state; a state this code cannot read protects everything after 0.
 */
export function learnerFloor(state: string | null): number | null {
  if (state === null) return null;
  let parsed: { cursor?: unknown; canary?: { startCursor?: unknown } | null };
  try {
    parsed = JSON.parse(state) as typeof parsed;
  } catch {
    return 1;
  }
  const cursors = [parsed.cursor, parsed.canary?.startCursor].filter(
    (value): value is number => typeof value === "number" && Number.isFinite(value),
  );
  return cursors.length === 0 ? 1 : Math.min(...cursors) + 1;
}

/** `RetentionStore.applyRetention` over a backend's statements. */
export async function runRetention(
  tables: RetentionTables,
  input: Partial<RetentionPolicy>,
  now: Date,
): Promise<RetentionResult> {
  const policy = parseRetentionPolicy(input);
  const expiry = await runExpiry(tables, {
    deadlineMs: policy.reportDeadlineMs,
    now,
    batchSize: policy.batchSize,
  });
  const result: RetentionResult = {
    expired: expiry.expired,
    compactedOutcomes: 0,
    compactedUnreported: 0,
    trajectoriesDropped: 0,
    batches: expiry.batches,
  };
  const outcomeCut = daysBefore(now, policy.outcomeMaxAgeDays);
  const trajectoryCut = daysBefore(now, policy.trajectoryMaxAgeDays);
  for (const domain of await tables.outcomeDomains()) {
    const keepFrom = await tables.seqAtRank(domain, policy.keepLatestOutcomes);
    if (keepFrom === null) continue; // fewer outcomes than are always kept
    const proposedFrom = await tables.firstProposedSeq(domain);
    const learnerFrom = learnerFloor(await tables.learnerState(domain));
    const before = Math.min(keepFrom, proposedFrom ?? Infinity, learnerFrom ?? Infinity);
    const capFrom = await tables.seqAtRank(domain, policy.maxOutcomesPerDomain);
    for (;;) {
      const ids = await tables.outcomeCandidates(domain, before, outcomeCut, capFrom, policy.batchSize);
      if (ids.length === 0) break;
      result.compactedOutcomes += await tables.compact(ids);
      result.batches++;
      if (ids.length < policy.batchSize) break;
    }
    for (;;) {
      const dropped = await tables.dropTrajectories(domain, before, trajectoryCut, policy.batchSize);
      result.trajectoriesDropped += dropped;
      result.batches++;
      if (dropped < policy.batchSize) break;
    }
  }
  const unreportedCut = daysBefore(now, policy.unreportedMaxAgeDays);
  for (;;) {
    const ids = await tables.expiredCandidates(unreportedCut, policy.batchSize);
    if (ids.length === 0) break;
    result.compactedUnreported += await tables.compact(ids);
    result.batches++;
    if (ids.length < policy.batchSize) break;
  }
  return result;
}

/** Live rows per version plus the aggregates, as `OutcomeStats`. */
export function mergeOutcomeStats(
  domain: string,
  live: ReadonlyArray<VersionOutcomeStats & { awaiting: number }>,
  compacted: readonly VersionOutcomeStats[],
  liveOutcomes: number,
): OutcomeStats {
  const byVersion = new Map<number | null, VersionOutcomeStats>();
  const add = (row: VersionOutcomeStats) => {
    const sum = byVersion.get(row.version) ?? {
      version: row.version,
      served: 0,
      reported: 0,
      successes: 0,
      rewardSum: 0,
      noReport: 0,
    };
    sum.served += row.served;
    sum.reported += row.reported;
    sum.successes += row.successes;
    sum.rewardSum += row.rewardSum;
    sum.noReport += row.noReport;
    byVersion.set(row.version, sum);
  };
  for (const row of live) add({ ...row });
  for (const row of compacted) add(row);
  const versions = [...byVersion.values()].sort((a, b) => (a.version ?? 0) - (b.version ?? 0));
  const total = (key: "served" | "reported" | "successes" | "noReport") =>
    versions.reduce((sum, row) => sum + row[key], 0);
  return {
    domain,
    served: total("served"),
    reported: total("reported"),
    successes: total("successes"),
    awaiting: live.reduce((sum, row) => sum + row.awaiting, 0),
    noReport: total("noReport"),
    compacted: compacted.reduce((sum, row) => sum + row.served, 0),
    liveOutcomes,
    byVersion: versions,
  };
}
