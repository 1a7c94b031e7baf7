import { checkDomain } from "../base-library-store.js";
import {
  deadlineCutoff,
  defaultRetentionPolicy,
  type EntryExposureAggregate,
  type ExpireOptions,
  mergeOutcomeStats,
  type OutcomeStats,
  type OutcomeStatsOptions,
  type RetentionPolicy,
  type RetentionResult,
  type RetentionStore,
  type RetentionTables,
  runExpiry,
  runRetention,
  type VersionOutcomeStats,
  versionOfKey,
} from "../retention.js";
import { all, get, run, type SqlPort } from "./sql-port.js";

/** Numbers of a row as JS numbers (PostgreSQL returns bigint sums as strings). */
function numbers<T>(row: Record<string, unknown>, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const key of keys) out[key] = row[key] === null ? null : Number(row[key]);
  return out as T;
}

const statKeys = ["version", "served", "reported", "successes", "rewardSum", "noReport", "awaiting"] as const;
const exposureKeys = ["version", "shown", "explored", "withheld", "reported", "rewardSum"] as const;

/**
 * Deadlines and retention (`RetentionStore`) of a SQL store; see `retention.ts`. A compaction batch first locks its
 * selections' rows (PostgreSQL), so two sweepers never aggregate a row twice: the second finds it gone.
 */
export class SqlRetentionStore implements RetentionStore {
  private readonly tables: RetentionTables;

  constructor(private readonly db: SqlPort) {
    this.tables = retentionTables(db);
  }

  async expireSelections(options: ExpireOptions = {}): Promise<number> {
    return (await runExpiry(this.tables, { ...options, now: options.now ?? this.db.now() })).expired;
  }

  applyRetention(policy: Partial<RetentionPolicy>, now?: Date): Promise<RetentionResult> {
    return runRetention(this.tables, policy, now ?? this.db.now());
  }

  async outcomeStats(domain: string, options: OutcomeStatsOptions = {}): Promise<OutcomeStats> {
    checkDomain(domain);
    const now = options.now ?? this.db.now();
    const cutoff = deadlineCutoff(now, options.reportDeadlineMs ?? defaultRetentionPolicy.reportDeadlineMs);
    return this.db.read(function* () {
      const live = (yield* all<Record<string, unknown>>(
        `SELECT s.version AS version, count(*) AS served, count(o.seq) AS reported,
             count(*) FILTER (WHERE o.success) AS successes, coalesce(sum(o.reward), 0) AS "rewardSum",
             count(*) FILTER (WHERE o.seq IS NULL AND (s.expired_at IS NOT NULL OR s.served_at < ?)) AS "noReport",
             count(*) FILTER (WHERE o.seq IS NULL AND s.expired_at IS NULL AND s.served_at >= ?) AS awaiting
           FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
           WHERE s.domain = ? GROUP BY s.version`,
        [cutoff, cutoff, domain],
      )).map((row) => numbers<VersionOutcomeStats & { awaiting: number }>(row, statKeys));
      const compacted = (yield* all<Record<string, unknown>>(
        `SELECT version, sum(served) AS served, sum(reported) AS reported, sum(successes) AS successes,
             sum(reward_sum) AS "rewardSum", sum(no_report) AS "noReport"
           FROM outcome_aggregates WHERE domain = ? GROUP BY version`,
        [domain],
      )).map((row) => {
        const parsed = numbers<VersionOutcomeStats & { version: number }>(row, statKeys.slice(0, 6));
        return { ...parsed, version: versionOfKey(parsed.version) };
      });
      const liveOutcomes = yield* get<{ n: number | string }>(
        "SELECT count(*) AS n FROM outcomes WHERE domain = ?",
        [domain],
      );
      return mergeOutcomeStats(domain, live, compacted, Number(liveOutcomes!.n));
    }, true);
  }

  async listEntryExposure(domain: string): Promise<EntryExposureAggregate[]> {
    checkDomain(domain);
    const rows = await this.db.run(() =>
      all<Record<string, unknown>>(
        `SELECT entry_id AS "entryId", version, shown, explored, withheld, reported, reward_sum AS "rewardSum"
         FROM entry_exposure_aggregates WHERE domain = ? ORDER BY entry_id, version`,
        [domain],
      ),
    );
    return rows.map((row) => {
      const parsed = numbers<EntryExposureAggregate & { version: number }>(row, exposureKeys);
      return { ...parsed, version: versionOfKey(parsed.version) };
    });
  }
}

function retentionTables(db: SqlPort): RetentionTables {
  const { dialect } = db;
  const inIds = dialect.inList("s.selection_id", "text");
  const selectionIds = async (text: string, params: unknown[]) =>
    (await db.run(() => all<{ selection_id: string }>(text, params))).map((row) => row.selection_id);
  const seq = async (text: string, params: unknown[]) => {
    const row = await db.run(() => get<{ seq: number | string | null }>(text, params));
    return row?.seq == null ? null : Number(row.seq);
  };
  /** The JSON list of ids in `column` as rows `e(value)`. */
  const elements = (column: string) =>
    dialect.name === "sqlite"
      ? `json_each(${column}) e`
      : `LATERAL jsonb_array_elements_text(${column}::jsonb) e`;
  return {
    async outcomeDomains() {
      const rows = await db.run(() =>
        all<{ domain: string }>("SELECT DISTINCT domain FROM outcomes ORDER BY domain"),
      );
      return rows.map((row) => row.domain);
    },
    seqAtRank: (domain, rank) =>
      seq("SELECT seq FROM outcomes WHERE domain = ? ORDER BY seq DESC LIMIT 1 OFFSET ?", [domain, rank - 1]),
    firstProposedSeq: (domain) =>
      seq(
        `SELECT min(o.seq) AS seq FROM outcomes o
         JOIN library_versions v ON v.domain = o.domain AND v.version = o.version
         WHERE o.domain = ? AND v.state = 'proposed'`,
        [domain],
      ),
    async learnerState(domain) {
      const row = await db.run(() =>
        get<{ state: string | null }>("SELECT state FROM online_learners WHERE domain = ?", [domain]),
      );
      return row?.state ?? null;
    },
    outcomeCandidates: (domain, before, olderThan, capBefore, limit) =>
      selectionIds(
        `SELECT selection_id FROM outcomes WHERE domain = ? AND seq < ? AND (reported_at < ? OR seq < ?)
         ORDER BY seq LIMIT ?`,
        [domain, before, olderThan, capBefore ?? -1, limit],
      ),
    expiredCandidates: (servedBefore, limit) =>
      selectionIds(
        `SELECT selection_id FROM served_selections WHERE expired_at IS NOT NULL AND served_at < ?
         ORDER BY served_at LIMIT ?`,
        [servedBefore, limit],
      ),
    compact: (ids) =>
      db.write(function* () {
        // Rows a concurrent sweeper compacted meanwhile are gone once its transaction commits: skipped here.
        const locked = (yield* all<{ selection_id: string }>(
          `SELECT s.selection_id FROM served_selections s WHERE ${inIds} ORDER BY s.selection_id${dialect.forUpdate}`,
          [ids],
        )).map((row) => row.selection_id);
        if (locked.length === 0) return 0;
        yield* run(
          `INSERT INTO outcome_aggregates AS a (domain, version, day, served, reported, successes, reward_sum, no_report)
           SELECT s.domain, coalesce(s.version, 0), substr(s.served_at, 1, 10), count(*), count(o.seq),
             count(*) FILTER (WHERE o.success), coalesce(sum(o.reward), 0), count(*) FILTER (WHERE o.seq IS NULL)
           FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
           WHERE ${inIds} GROUP BY 1, 2, 3
           ON CONFLICT (domain, version, day) DO UPDATE SET served = a.served + excluded.served,
             reported = a.reported + excluded.reported, successes = a.successes + excluded.successes,
             reward_sum = a.reward_sum + excluded.reward_sum, no_report = a.no_report + excluded.no_report`,
          [locked],
        );
        yield* run(
          `INSERT INTO entry_exposure_aggregates AS a (domain, entry_id, version, shown, explored, withheld, reported,
             reward_sum)
           SELECT domain, entry_id, v, sum(shown), sum(explored), sum(withheld), sum(reported), sum(reward) FROM (
             SELECT s.domain, e.value AS entry_id, coalesce(s.version, 0) AS v, 1 AS shown, 0 AS explored,
               0 AS withheld, CASE WHEN o.seq IS NULL THEN 0 ELSE 1 END AS reported, coalesce(o.reward, 0) AS reward
             FROM served_selections s LEFT JOIN outcomes o USING (selection_id) CROSS JOIN ${elements("s.entry_ids")}
             WHERE ${inIds}
             UNION ALL
             SELECT s.domain, e.value, coalesce(s.version, 0), 0, 1, 0, 0, 0
             FROM served_selections s CROSS JOIN ${elements("s.exploration_ids")} WHERE ${inIds}
             UNION ALL
             SELECT s.domain, e.value, coalesce(s.version, 0), 0, 0, 1, 0, 0
             FROM served_selections s CROSS JOIN ${elements("s.withheld_ids")} WHERE ${inIds}
           ) exposure WHERE true GROUP BY 1, 2, 3
           ON CONFLICT (domain, entry_id, version) DO UPDATE SET shown = a.shown + excluded.shown,
             explored = a.explored + excluded.explored, withheld = a.withheld + excluded.withheld,
             reported = a.reported + excluded.reported, reward_sum = a.reward_sum + excluded.reward_sum`,
          [locked, locked, locked],
        );
        yield* run(`DELETE FROM outcomes WHERE ${dialect.inList("selection_id", "text")}`, [locked]);
        return yield* run(`DELETE FROM served_selections WHERE ${dialect.inList("selection_id", "text")}`, [
          locked,
        ]);
      }),
    dropTrajectories: (domain, before, olderThan, limit) =>
      db.write(() =>
        run(
          `UPDATE outcomes SET trajectory = NULL WHERE seq IN (SELECT seq FROM outcomes
             WHERE domain = ? AND seq < ? AND reported_at < ? AND trajectory IS NOT NULL ORDER BY seq LIMIT ?)`,
          [domain, before, olderThan, limit],
        ),
      ),
    expire: (cutoff, since, at, limit) =>
      db.write(() =>
        run(
          `UPDATE served_selections SET expired_at = ? WHERE selection_id IN (
             SELECT s.selection_id FROM served_selections s
             WHERE s.expired_at IS NULL AND s.served_at < ? AND s.served_at >= ?
               AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.selection_id = s.selection_id)
             LIMIT ?${dialect.skipLocked})`,
          [at, cutoff, since ?? "", limit],
        ),
      ),
  };
}
