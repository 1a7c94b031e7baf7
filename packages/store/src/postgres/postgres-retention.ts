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
import type { PostgresConnection } from "./postgres-connection.js";

/** Numbers of a row as JS numbers (PostgreSQL returns bigint sums as strings). */
function numbers<T>(row: Record<string, unknown>, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const key of keys) out[key] = row[key] === null ? null : Number(row[key]);
  return out as T;
}

const statKeys = ["version", "served", "reported", "successes", "rewardSum", "noReport", "awaiting"] as const;

/**
 * Deadlines and retention (`RetentionStore`) of a PostgreSQL store; see `retention.ts`. A compaction batch first
 * locks its selections' rows, so two sweepers (two processes) never aggregate a row twice: the second finds it gone.
 */
export class PostgresRetentionStore implements RetentionStore {
  private readonly connection: PostgresConnection;
  private readonly tables: RetentionTables;

  constructor(connection: PostgresConnection) {
    this.connection = connection;
    this.tables = postgresRetentionTables(connection);
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
    return this.connection.transaction(async (sql) => {
      const live = (
        await sql.query(
          `SELECT s.version AS version, count(*) AS served, count(o.seq) AS reported,
             count(*) FILTER (WHERE o.success) AS successes, coalesce(sum(o.reward), 0) AS "rewardSum",
             count(*) FILTER (WHERE o.seq IS NULL AND (s.expired_at IS NOT NULL OR s.served_at < $2)) AS "noReport",
             count(*) FILTER (WHERE o.seq IS NULL AND s.expired_at IS NULL AND s.served_at >= $2) AS awaiting
           FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
           WHERE s.domain = $1 GROUP BY s.version`,
          [domain, cutoff],
        )
      ).rows.map((row) => numbers<VersionOutcomeStats & { awaiting: number }>(row, statKeys));
      const compacted = (
        await sql.query(
          `SELECT version, sum(served) AS served, sum(reported) AS reported, sum(successes) AS successes,
             sum(reward_sum) AS "rewardSum", sum(no_report) AS "noReport"
           FROM outcome_aggregates WHERE domain = $1 GROUP BY version`,
          [domain],
        )
      ).rows.map((row) => {
        const parsed = numbers<VersionOutcomeStats & { version: number }>(row, statKeys.slice(0, 6));
        return { ...parsed, version: versionOfKey(parsed.version) };
      });
      const liveOutcomes = Number(
        (await sql.query("SELECT count(*) AS n FROM outcomes WHERE domain = $1", [domain])).rows[0]!.n,
      );
      return mergeOutcomeStats(domain, live, compacted, liveOutcomes);
    }, "REPEATABLE READ");
  }

  async listEntryExposure(domain: string): Promise<EntryExposureAggregate[]> {
    checkDomain(domain);
    const rows = (
      await this.connection.query(
        `SELECT entry_id AS "entryId", version, shown, explored, withheld, reported, reward_sum AS "rewardSum"
         FROM entry_exposure_aggregates WHERE domain = $1 ORDER BY entry_id, version`,
        [domain],
      )
    ).rows;
    return rows.map((row) => {
      const parsed = numbers<EntryExposureAggregate & { version: number }>(row, [
        "version",
        "shown",
        "explored",
        "withheld",
        "reported",
        "rewardSum",
      ]);
      return { ...parsed, version: versionOfKey(parsed.version) };
    });
  }
}

function postgresRetentionTables(connection: PostgresConnection): RetentionTables {
  const c = connection;
  const selectionIds = async (text: string, values: unknown[]) =>
    (await c.query<{ selection_id: string }>(text, values)).rows.map((row) => row.selection_id);
  return {
    async outcomeDomains() {
      return (
        await c.query<{ domain: string }>("SELECT DISTINCT domain FROM outcomes ORDER BY domain")
      ).rows.map((row) => row.domain);
    },
    async seqAtRank(domain, rank) {
      const row = (
        await c.query<{ seq: number }>(
          "SELECT seq FROM outcomes WHERE domain = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2",
          [domain, rank - 1],
        )
      ).rows[0];
      return row ? Number(row.seq) : null;
    },
    async firstProposedSeq(domain) {
      const row = (
        await c.query<{ seq: number | null }>(
          `SELECT min(o.seq) AS seq FROM outcomes o
           JOIN library_versions v ON v.domain = o.domain AND v.version = o.version
           WHERE o.domain = $1 AND v.state = 'proposed'`,
          [domain],
        )
      ).rows[0];
      return row?.seq == null ? null : Number(row.seq);
    },
    async learnerState(domain) {
      const row = (
        await c.query<{ state: string | null }>("SELECT state FROM online_learners WHERE domain = $1", [
          domain,
        ])
      ).rows[0];
      return row?.state ?? null;
    },
    outcomeCandidates(domain, before, olderThan, capBefore, limit) {
      return selectionIds(
        `SELECT selection_id FROM outcomes WHERE domain = $1 AND seq < $2 AND (reported_at < $3 OR seq < $4)
         ORDER BY seq LIMIT $5`,
        [domain, before, olderThan, capBefore ?? -1, limit],
      );
    },
    expiredCandidates(servedBefore, limit) {
      return selectionIds(
        `SELECT selection_id FROM served_selections WHERE expired_at IS NOT NULL AND served_at < $1
         ORDER BY served_at LIMIT $2`,
        [servedBefore, limit],
      );
    },
    async compact(ids) {
      return c.transaction(async (sql) => {
        // Rows a concurrent sweeper compacted meanwhile are gone once its transaction commits: skipped here.
        const locked = (
          await sql.query<{ selection_id: string }>(
            `SELECT selection_id FROM served_selections WHERE selection_id = ANY($1::text[])
             ORDER BY selection_id FOR UPDATE`,
            [ids],
          )
        ).rows.map((row) => row.selection_id);
        if (locked.length === 0) return 0;
        await sql.query(
          `INSERT INTO outcome_aggregates AS a (domain, version, day, served, reported, successes, reward_sum, no_report)
           SELECT s.domain, coalesce(s.version, 0), substr(s.served_at, 1, 10), count(*), count(o.seq),
             count(*) FILTER (WHERE o.success), coalesce(sum(o.reward), 0), count(*) FILTER (WHERE o.seq IS NULL)
           FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
           WHERE s.selection_id = ANY($1::text[]) GROUP BY 1, 2, 3
           ON CONFLICT (domain, version, day) DO UPDATE SET served = a.served + excluded.served,
             reported = a.reported + excluded.reported, successes = a.successes + excluded.successes,
             reward_sum = a.reward_sum + excluded.reward_sum, no_report = a.no_report + excluded.no_report`,
          [locked],
        );
        await sql.query(
          `INSERT INTO entry_exposure_aggregates AS a (domain, entry_id, version, shown, explored, withheld, reported,
             reward_sum)
           SELECT domain, entry_id, v, sum(shown), sum(explored), sum(withheld), sum(reported), sum(reward) FROM (
             SELECT s.domain, e.value AS entry_id, coalesce(s.version, 0) AS v, 1 AS shown, 0 AS explored,
               0 AS withheld, (o.seq IS NOT NULL)::int AS reported, coalesce(o.reward, 0) AS reward
             FROM served_selections s LEFT JOIN outcomes o USING (selection_id)
               CROSS JOIN LATERAL jsonb_array_elements_text(s.entry_ids::jsonb) e
             WHERE s.selection_id = ANY($1::text[])
             UNION ALL
             SELECT s.domain, e.value, coalesce(s.version, 0), 0, 1, 0, 0, 0
             FROM served_selections s CROSS JOIN LATERAL jsonb_array_elements_text(s.exploration_ids::jsonb) e
             WHERE s.selection_id = ANY($1::text[])
             UNION ALL
             SELECT s.domain, e.value, coalesce(s.version, 0), 0, 0, 1, 0, 0
             FROM served_selections s CROSS JOIN LATERAL jsonb_array_elements_text(s.withheld_ids::jsonb) e
             WHERE s.selection_id = ANY($1::text[])
           ) exposure GROUP BY 1, 2, 3
           ON CONFLICT (domain, entry_id, version) DO UPDATE SET shown = a.shown + excluded.shown,
             explored = a.explored + excluded.explored, withheld = a.withheld + excluded.withheld,
             reported = a.reported + excluded.reported, reward_sum = a.reward_sum + excluded.reward_sum`,
          [locked],
        );
        await sql.query("DELETE FROM outcomes WHERE selection_id = ANY($1::text[])", [locked]);
        const deleted = await sql.query(
          "DELETE FROM served_selections WHERE selection_id = ANY($1::text[])",
          [locked],
        );
        return deleted.rowCount ?? 0;
      });
    },
    async dropTrajectories(domain, before, olderThan, limit) {
      const result = await c.query(
        `UPDATE outcomes SET trajectory = NULL WHERE seq IN (SELECT seq FROM outcomes
           WHERE domain = $1 AND seq < $2 AND reported_at < $3 AND trajectory IS NOT NULL ORDER BY seq LIMIT $4)`,
        [domain, before, olderThan, limit],
      );
      return result.rowCount ?? 0;
    },
    async expire(cutoff, since, at, limit) {
      const result = await c.query(
        `UPDATE served_selections SET expired_at = $1 WHERE selection_id IN (
           SELECT s.selection_id FROM served_selections s
           WHERE s.expired_at IS NULL AND s.served_at < $2 AND s.served_at >= $3
             AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.selection_id = s.selection_id)
           LIMIT $4 FOR UPDATE SKIP LOCKED)`,
        [at, cutoff, since ?? "", limit],
      );
      return result.rowCount ?? 0;
    },
  };
}
