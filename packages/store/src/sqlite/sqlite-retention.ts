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
import type { SqliteConnection } from "./sqlite-connection.js";

const ids = "(SELECT value FROM json_each(?))";

/** Deadlines and retention (`RetentionStore`) on the shared connection of a SQLite store; see `retention.ts`. */
export class SqliteRetentionStore implements RetentionStore {
  private readonly connection: SqliteConnection;
  private readonly tables: RetentionTables;

  constructor(connection: SqliteConnection) {
    this.connection = connection;
    this.tables = sqliteRetentionTables(connection);
  }

  async expireSelections(options: ExpireOptions = {}): Promise<number> {
    return (await runExpiry(this.tables, { ...options, now: options.now ?? this.connection.now() })).expired;
  }

  applyRetention(policy: Partial<RetentionPolicy>, now?: Date): Promise<RetentionResult> {
    return runRetention(this.tables, policy, now ?? this.connection.now());
  }

  async outcomeStats(domain: string, options: OutcomeStatsOptions = {}): Promise<OutcomeStats> {
    checkDomain(domain);
    const now = options.now ?? this.connection.now();
    const cutoff = deadlineCutoff(now, options.reportDeadlineMs ?? defaultRetentionPolicy.reportDeadlineMs);
    return this.connection.read(() => {
      const live = this.connection
        .stmt(
          `SELECT s.version AS version, count(*) AS served, count(o.seq) AS reported,
             coalesce(sum(o.success), 0) AS successes, coalesce(sum(o.reward), 0) AS rewardSum,
             coalesce(sum(o.seq IS NULL AND (s.expired_at IS NOT NULL OR s.served_at < ?)), 0) AS noReport,
             coalesce(sum(o.seq IS NULL AND s.expired_at IS NULL AND s.served_at >= ?), 0) AS awaiting
           FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
           WHERE s.domain = ? GROUP BY s.version`,
        )
        .all(cutoff, cutoff, domain) as Array<VersionOutcomeStats & { awaiting: number }>;
      const compacted = (
        this.connection
          .stmt(
            `SELECT version, sum(served) AS served, sum(reported) AS reported, sum(successes) AS successes,
               sum(reward_sum) AS rewardSum, sum(no_report) AS noReport
             FROM outcome_aggregates WHERE domain = ? GROUP BY version`,
          )
          .all(domain) as Array<VersionOutcomeStats & { version: number }>
      ).map((row) => ({ ...row, version: versionOfKey(row.version) }));
      const liveOutcomes = (
        this.connection.stmt("SELECT count(*) AS n FROM outcomes WHERE domain = ?").get(domain) as {
          n: number;
        }
      ).n;
      return mergeOutcomeStats(domain, live, compacted, liveOutcomes);
    });
  }

  async listEntryExposure(domain: string): Promise<EntryExposureAggregate[]> {
    checkDomain(domain);
    return (
      this.connection
        .stmt(
          `SELECT entry_id AS entryId, version, shown, explored, withheld, reported, reward_sum AS rewardSum
           FROM entry_exposure_aggregates WHERE domain = ? ORDER BY entry_id, version`,
        )
        .all(domain) as Array<EntryExposureAggregate & { version: number }>
    ).map((row) => ({ ...row, version: versionOfKey(row.version) }));
  }
}

function sqliteRetentionTables(connection: SqliteConnection): RetentionTables {
  const c = connection;
  return {
    async outcomeDomains() {
      return (
        c.stmt("SELECT DISTINCT domain FROM outcomes ORDER BY domain").all() as Array<{ domain: string }>
      ).map((row) => row.domain);
    },
    async seqAtRank(domain, rank) {
      const row = c
        .stmt("SELECT seq FROM outcomes WHERE domain = ? ORDER BY seq DESC LIMIT 1 OFFSET ?")
        .get(domain, rank - 1) as { seq: number } | undefined;
      return row?.seq ?? null;
    },
    async firstProposedSeq(domain) {
      const row = c
        .stmt(
          `SELECT min(o.seq) AS seq FROM outcomes o JOIN library_versions v ON v.domain = o.domain AND v.version = o.version
           WHERE o.domain = ? AND v.state = 'proposed'`,
        )
        .get(domain) as { seq: number | null };
      return row.seq;
    },
    async learnerState(domain) {
      const row = c.stmt("SELECT state FROM online_learners WHERE domain = ?").get(domain) as
        | { state: string | null }
        | undefined;
      return row?.state ?? null;
    },
    async outcomeCandidates(domain, before, olderThan, capBefore, limit) {
      return (
        c
          .stmt(
            `SELECT selection_id FROM outcomes WHERE domain = ? AND seq < ? AND (reported_at < ? OR seq < ?)
             ORDER BY seq LIMIT ?`,
          )
          .all(domain, before, olderThan, capBefore ?? -1, limit) as Array<{ selection_id: string }>
      ).map((row) => row.selection_id);
    },
    async expiredCandidates(servedBefore, limit) {
      return (
        c
          .stmt(
            `SELECT selection_id FROM served_selections WHERE expired_at IS NOT NULL AND served_at < ?
             ORDER BY served_at LIMIT ?`,
          )
          .all(servedBefore, limit) as Array<{ selection_id: string }>
      ).map((row) => row.selection_id);
    },
    async compact(selectionIds) {
      const list = JSON.stringify(selectionIds);
      return c.write(() => {
        c.stmt(
          `INSERT INTO outcome_aggregates (domain, version, day, served, reported, successes, reward_sum, no_report)
           SELECT s.domain, coalesce(s.version, 0), substr(s.served_at, 1, 10), count(*), count(o.seq),
             coalesce(sum(o.success), 0), coalesce(sum(o.reward), 0), sum(o.seq IS NULL)
           FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
           WHERE s.selection_id IN ${ids} GROUP BY 1, 2, 3
           ON CONFLICT (domain, version, day) DO UPDATE SET served = served + excluded.served,
             reported = reported + excluded.reported, successes = successes + excluded.successes,
             reward_sum = reward_sum + excluded.reward_sum, no_report = no_report + excluded.no_report`,
        ).run(list);
        c.stmt(
          `INSERT INTO entry_exposure_aggregates (domain, entry_id, version, shown, explored, withheld, reported,
             reward_sum)
           SELECT domain, entry_id, v, sum(shown), sum(explored), sum(withheld), sum(reported), sum(reward) FROM (
             SELECT s.domain, e.value AS entry_id, coalesce(s.version, 0) AS v, 1 AS shown, 0 AS explored,
               0 AS withheld, o.seq IS NOT NULL AS reported, coalesce(o.reward, 0) AS reward
             FROM served_selections s LEFT JOIN outcomes o USING (selection_id) JOIN json_each(s.entry_ids) e
             WHERE s.selection_id IN ${ids}
             UNION ALL
             SELECT s.domain, e.value, coalesce(s.version, 0), 0, 1, 0, 0, 0
             FROM served_selections s JOIN json_each(s.exploration_ids) e WHERE s.selection_id IN ${ids}
             UNION ALL
             SELECT s.domain, e.value, coalesce(s.version, 0), 0, 0, 1, 0, 0
             FROM served_selections s JOIN json_each(s.withheld_ids) e WHERE s.selection_id IN ${ids}
           ) WHERE true GROUP BY 1, 2, 3
           ON CONFLICT (domain, entry_id, version) DO UPDATE SET shown = shown + excluded.shown,
             explored = explored + excluded.explored, withheld = withheld + excluded.withheld,
             reported = reported + excluded.reported, reward_sum = reward_sum + excluded.reward_sum`,
        ).run(list, list, list);
        c.stmt(`DELETE FROM outcomes WHERE selection_id IN ${ids}`).run(list);
        return c.stmt(`DELETE FROM served_selections WHERE selection_id IN ${ids}`).run(list).changes;
      });
    },
    async dropTrajectories(domain, before, olderThan, limit) {
      return c.write(
        () =>
          c
            .stmt(
              `UPDATE outcomes SET trajectory = NULL WHERE seq IN (SELECT seq FROM outcomes
                 WHERE domain = ? AND seq < ? AND reported_at < ? AND trajectory IS NOT NULL ORDER BY seq LIMIT ?)`,
            )
            .run(domain, before, olderThan, limit).changes,
      );
    },
    async expire(cutoff, since, at, limit) {
      return c.write(
        () =>
          c
            .stmt(
              `UPDATE served_selections SET expired_at = ? WHERE selection_id IN (
                 SELECT s.selection_id FROM served_selections s
                 WHERE s.expired_at IS NULL AND s.served_at < ? AND s.served_at >= ?
                   AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.selection_id = s.selection_id)
                 LIMIT ?)`,
            )
            .run(at, cutoff, since ?? "", limit).changes,
      );
    },
  };
}
