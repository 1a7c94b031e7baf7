import { addContrast, emptyContrast, TfgrpoError } from "@tfgrpo/protocol";
import { checkDomain } from "../base-library-store.js";
import { experienceOrdinal } from "../library/plan-operations.js";
import type { StatsDelta } from "../library-store.js";
import {
  alreadyReported,
  excludedClientsClause,
  expiredSelection,
  type OutcomeRow,
  outcomeStatsDeltas,
  type SelectionRow,
  toOutcome,
  toSelection,
} from "../outcome-rows.js";
import type {
  OutcomeCounts,
  OutcomeFilter,
  OutcomeReport,
  OutcomeStore,
  ReportOptions,
  ServedSelection,
  StoredOutcome,
} from "../outcome-store.js";
import { parseMarkConsumed, parseOutcomeFilter, parseReport, parseSelection } from "../outcome-validation.js";
import { settleContrast, variedArms } from "../settle-contrast.js";
import type { SqlLibraryStore } from "../sql/sql-library-store.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { drive } from "./sqlite-port.js";
import { type BatchedWrite, createWriteBatcher } from "./sqlite-write-batcher.js";

const outcomeColumns = `o.seq, o.reward, o.success, o.feedback, o.trajectory, o.summary, o.cited_ids, o.reported_at,
  o.consumed_by, o.consumed_at, s.selection_id, s.domain, s.version, s.entry_ids, s.exploration_ids, s.task,
  s.served_at, s.meta, s.withheld_ids, s.stratum, coalesce(o.client, s.client) AS client`;

/**
 * Served selections and their outcomes (`served_selections`, `outcomes`) on the shared connection of a SQLite store.
 * A report is atomic: the outcome row (UNIQUE on the selection) and the credit of the shown entries (through the
 * library store's `addStats`) land together, in a savepoint of a `BEGIN IMMEDIATE` transaction that the reports and
 * selections arriving in the same event-loop turn share (group commit).
 */
export class SqliteOutcomeStore implements OutcomeStore {
  private readonly connection: SqliteConnection;
  private readonly libraries: SqlLibraryStore;
  /** Selections and reports arriving together share one transaction (group commit), each in its own savepoint. */
  private readonly batch: BatchedWrite;

  constructor(connection: SqliteConnection, libraries: SqlLibraryStore) {
    this.connection = connection;
    this.libraries = libraries;
    this.batch = createWriteBatcher(connection);
  }

  async recordSelection(selection: ServedSelection): Promise<void> {
    const s = parseSelection(selection);
    const values = [
      s.selectionId,
      s.domain,
      s.version,
      JSON.stringify(s.entryIds),
      JSON.stringify(s.explorationIds),
      s.task,
      s.servedAt,
      s.meta === undefined ? null : JSON.stringify(s.meta),
      JSON.stringify(s.withheldIds ?? []),
      s.stratum ?? null,
      s.client ?? null,
    ] as const;
    await this.batch(() => {
      const inserted = this.connection
        .stmt(
          `INSERT OR IGNORE INTO served_selections (selection_id, domain, version, entry_ids, exploration_ids, task,
             served_at, meta, withheld_ids, stratum, client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...values).changes;
      if (inserted === 1) return;
      const row = this.selectionRow(s.selectionId)!;
      const same = [
        row.selection_id,
        row.domain,
        row.version,
        row.entry_ids,
        row.exploration_ids,
        row.task,
        row.served_at,
        row.meta,
        row.withheld_ids,
        row.stratum,
        row.client,
      ].every((value, index) => value === values[index]);
      if (!same) {
        throw new TfgrpoError(
          "conflict",
          `selection ${s.selectionId} is already recorded with different content (served ${row.served_at})`,
          { details: { selectionId: s.selectionId } },
        );
      }
    });
  }

  async reportOutcome(report: OutcomeReport, options: ReportOptions = {}): Promise<StoredOutcome> {
    const r = parseReport(report);
    const at = options.now ?? this.connection.now();
    const reportedAt = at.toISOString();
    return this.batch(() => {
      const selection = this.selectionRow(r.selectionId);
      if (!selection) {
        throw new TfgrpoError(
          "not_found",
          `unknown selection ${r.selectionId}: report the selectionId returned by get_experiences`,
          { details: { selectionId: r.selectionId } },
        );
      }
      const earlier = this.connection
        .stmt("SELECT reported_at FROM outcomes WHERE selection_id = ?")
        .get(r.selectionId) as { reported_at: string } | undefined;
      if (earlier) throw alreadyReported(r.selectionId, earlier.reported_at);
      const expired = expiredSelection(selection, at, options.deadlineMs);
      if (expired) throw expired;
      const inserted = this.connection
        .stmt(
          `INSERT INTO outcomes (selection_id, domain, version, reward, success, feedback, trajectory, summary,
             cited_ids, reported_at, client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          r.selectionId,
          selection.domain,
          selection.version,
          r.reward,
          r.success ? 1 : 0,
          r.feedback ?? null,
          r.trajectory === undefined ? null : JSON.stringify(r.trajectory),
          r.summary ?? null,
          JSON.stringify(r.citedIds ?? []),
          reportedAt,
          r.client ?? selection.client,
        );
      const served = toSelection(selection);
      const deltas = outcomeStatsDeltas(served, r.reward, r.baseline, selection.version);
      deltas.push(...this.settleContrasts(served, r.selectionId, r.reward));
      if (deltas.length > 0) drive(this.connection, this.libraries.addStats(selection.domain, deltas));
      // What was just written, without reading it back (a trajectory may be large).
      return {
        ...toSelection({ ...selection, client: r.client ?? selection.client }),
        seq: Number(inserted.lastInsertRowid),
        reward: r.reward,
        success: r.success,
        feedback: r.feedback ?? null,
        trajectory: r.trajectory ?? null,
        summary: r.summary ?? null,
        citedIds: r.citedIds ?? [],
        reportedAt,
        consumedBy: null,
        consumedAt: null,
      };
    });
  }

  async getSelection(
    selectionId: string,
  ): Promise<{ selection: ServedSelection; outcome: StoredOutcome | null } | null> {
    return this.connection.read(() => {
      const row = this.selectionRow(selectionId);
      if (!row) return null;
      return { selection: toSelection(row), outcome: this.outcomeBySelection(selectionId) };
    });
  }

  async listOutcomes(filter: OutcomeFilter): Promise<StoredOutcome[]> {
    const f = parseOutcomeFilter(filter);
    const clauses = ["o.domain = ?"];
    const params: unknown[] = [f.domain];
    const add = (clause: string, ...values: unknown[]) => {
      clauses.push(clause);
      params.push(...values);
    };
    if (f.after !== undefined) add("o.seq > ?", f.after);
    if (f.since !== undefined) add("o.reported_at >= ?", f.since.toISOString());
    if (f.until !== undefined) add("o.reported_at < ?", f.until.toISOString());
    if (f.version === null) add("o.version IS NULL");
    else if (f.version !== undefined) add("o.version = ?", f.version);
    if (f.consumed !== undefined) add(f.consumed ? "o.consumed_by IS NOT NULL" : "o.consumed_by IS NULL");
    if (!f.includeExcluded) add(excludedClientsClause);
    const where = clauses.join(" AND ");
    const sql =
      f.latest !== undefined
        ? `SELECT * FROM (SELECT ${outcomeColumns} FROM outcomes o JOIN served_selections s USING (selection_id)
             WHERE ${where} ORDER BY o.seq DESC LIMIT ?) ORDER BY seq LIMIT ?`
        : `SELECT ${outcomeColumns} FROM outcomes o JOIN served_selections s USING (selection_id)
             WHERE ${where} ORDER BY o.seq LIMIT ?`;
    const limits = f.latest !== undefined ? [f.latest, f.limit ?? -1] : [f.limit ?? -1];
    const rows = this.connection.stmt(sql).all(...params, ...limits) as OutcomeRow[];
    return rows.map(toOutcome);
  }

  async markConsumed(
    domain: string,
    selectionIds: readonly string[],
    reflectionId: string,
    options: ReportOptions = {},
  ): Promise<number> {
    const ids = parseMarkConsumed(domain, selectionIds, reflectionId);
    const at = (options.now ?? this.connection.now()).toISOString();
    return this.connection.write(() => {
      const found = new Set(
        (
          this.connection
            .stmt(
              `SELECT selection_id FROM outcomes WHERE domain = ? AND selection_id IN (SELECT value FROM json_each(?))`,
            )
            .all(domain, JSON.stringify(ids)) as Array<{ selection_id: string }>
        ).map((row) => row.selection_id),
      );
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw new TfgrpoError(
          "not_found",
          `cannot mark outcomes of ${domain} consumed: no reported outcome for ${missing.slice(0, 5).join(", ")}${
            missing.length > 5 ? ` and ${missing.length - 5} more` : ""
          }; nothing marked`,
          { details: { domain, missing } },
        );
      }
      return this.connection
        .stmt(
          `UPDATE outcomes SET consumed_by = ?, consumed_at = ?
           WHERE domain = ? AND consumed_by IS NULL AND selection_id IN (SELECT value FROM json_each(?))`,
        )
        .run(reflectionId, at, domain, JSON.stringify(ids)).changes;
    });
  }

  async countOutcomes(domain: string): Promise<OutcomeCounts> {
    checkDomain(domain);
    return this.connection.read(() => {
      const served = (
        this.connection.stmt("SELECT count(*) AS n FROM served_selections WHERE domain = ?").get(domain) as {
          n: number;
        }
      ).n;
      const counts = this.connection
        .stmt(
          `SELECT count(*) AS reported, coalesce(sum(success), 0) AS successes,
             coalesce(sum(consumed_by IS NULL), 0) AS unconsumed FROM outcomes WHERE domain = ?`,
        )
        .get(domain) as { reported: number; successes: number; unconsumed: number };
      // What retention compacted still counts (store migration 6).
      const compacted = this.connection
        .stmt(
          `SELECT coalesce(sum(served), 0) AS served, coalesce(sum(reported), 0) AS reported,
             coalesce(sum(successes), 0) AS successes FROM outcome_aggregates WHERE domain = ?`,
        )
        .get(domain) as { served: number; reported: number; successes: number };
      return {
        served: served + compacted.served,
        reported: counts.reported + compacted.reported,
        successes: counts.successes + compacted.successes,
        unconsumed: counts.unconsumed,
      };
    });
  }

  /** The contrasts this report completes (inside the report's transaction); see `OutcomeStore.reportOutcome`. */
  private settleContrasts(selection: ServedSelection, selectionId: string, reward: number): StatsDelta[] {
    const { stratum, domain } = selection;
    if (stratum === undefined) return [];
    const deltas: StatsDelta[] = [];
    for (const arm of variedArms(selection)) {
      const ordinal = experienceOrdinal(arm.id);
      const waiting = (
        this.connection
          .stmt(
            `SELECT selection_id, shown, reward FROM contrast_pending
             WHERE domain = ? AND ordinal = ? AND stratum = ? ORDER BY selection_id`,
          )
          .all(domain, ordinal, stratum) as Array<{ selection_id: string; shown: number; reward: number }>
      ).map((row) => ({ selectionId: row.selection_id, shown: row.shown === 1, reward: row.reward }));
      const settled = settleContrast(waiting, { selectionId, shown: arm.shown, reward });
      if (settled.difference === null) {
        this.connection
          .stmt(
            `INSERT INTO contrast_pending (domain, ordinal, stratum, selection_id, shown, reward)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(domain, ordinal, stratum, selectionId, arm.shown ? 1 : 0, reward);
        continue;
      }
      this.connection
        .stmt(
          `DELETE FROM contrast_pending WHERE domain = ? AND ordinal = ? AND stratum = ?
             AND selection_id IN (SELECT value FROM json_each(?))`,
        )
        .run(domain, ordinal, stratum, JSON.stringify(settled.consumed));
      deltas.push({
        id: arm.id,
        contrast: addContrast(emptyContrast(), settled.difference),
        lastUsedVersion: selection.version,
      });
    }
    return deltas;
  }

  private selectionRow(selectionId: string): SelectionRow | undefined {
    return this.connection.stmt("SELECT * FROM served_selections WHERE selection_id = ?").get(selectionId) as
      | SelectionRow
      | undefined;
  }

  private outcomeBySelection(selectionId: string): StoredOutcome | null {
    const row = this.connection
      .stmt(
        `SELECT ${outcomeColumns} FROM outcomes o JOIN served_selections s USING (selection_id)
         WHERE o.selection_id = ?`,
      )
      .get(selectionId) as OutcomeRow | undefined;
    return row ? toOutcome(row) : null;
  }
}
