import { addContrast, emptyContrast, TfgrpoError } from "@tfgrpo/protocol";
import { checkDomain } from "../base-library-store.js";
import { experienceOrdinal } from "../library/plan-operations.js";
import type { StatsDelta } from "../library-store.js";
import {
  alreadyReported,
  excludedClientsClause,
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
import type { PostgresConnection, Sql } from "./postgres-connection.js";
import type { PostgresLibraryStore } from "./postgres-library-store.js";

const selectionColumns =
  "selection_id, domain, version, entry_ids, exploration_ids, task, served_at, meta, withheld_ids, stratum, client";
const outcomeColumns = `o.seq, o.reward, o.success::int AS success, o.feedback, o.trajectory, o.summary, o.cited_ids, o.reported_at,
  o.consumed_by, o.consumed_at, s.selection_id, s.domain, s.version, s.entry_ids, s.exploration_ids, s.task,
  s.served_at, s.meta, s.withheld_ids, s.stratum, coalesce(o.client, s.client) AS client`;

/**
 * Served selections and their outcomes (`served_selections`, `outcomes`) of a PostgreSQL store. A report is one
 * transaction that first locks its selection's row, so two reports of one selection from any two processes take
 * turns and the second finds the first (`conflict`); the outcome row and the credit of the shown entries (through
 * the library store's `addStats`) land together.
 */
export class PostgresOutcomeStore implements OutcomeStore {
  private readonly connection: PostgresConnection;
  private readonly libraries: PostgresLibraryStore;

  constructor(connection: PostgresConnection, libraries: PostgresLibraryStore) {
    this.connection = connection;
    this.libraries = libraries;
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
    const inserted = await this.connection.query(
      `INSERT INTO served_selections (${selectionColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (selection_id) DO NOTHING`,
      [...values],
    );
    if (inserted.rowCount === 1) return;
    const row = (await this.selectionRow(this.connection, s.selectionId))!;
    const stored = [
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
    ];
    if (!stored.every((value, index) => value === values[index])) {
      throw new TfgrpoError(
        "conflict",
        `selection ${s.selectionId} is already recorded with different content (served ${row.served_at})`,
        { details: { selectionId: s.selectionId } },
      );
    }
  }

  async reportOutcome(report: OutcomeReport, options: ReportOptions = {}): Promise<StoredOutcome> {
    const r = parseReport(report);
    const reportedAt = (options.now ?? this.connection.now()).toISOString();
    return this.connection.transaction(async (sql) => {
      const selection = await this.selectionRow(sql, r.selectionId, true);
      if (!selection) {
        throw new TfgrpoError(
          "not_found",
          `unknown selection ${r.selectionId}: report the selectionId returned by get_experiences`,
          { details: { selectionId: r.selectionId } },
        );
      }
      const earlier = (
        await sql.query<{ reported_at: string }>("SELECT reported_at FROM outcomes WHERE selection_id = $1", [
          r.selectionId,
        ])
      ).rows[0];
      if (earlier) throw alreadyReported(r.selectionId, earlier.reported_at);
      await sql.query(
        `INSERT INTO outcomes (selection_id, domain, version, reward, success, feedback, trajectory, summary,
           cited_ids, reported_at, client) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          r.selectionId,
          selection.domain,
          selection.version,
          r.reward,
          r.success,
          r.feedback ?? null,
          r.trajectory === undefined ? null : JSON.stringify(r.trajectory),
          r.summary ?? null,
          JSON.stringify(r.citedIds ?? []),
          reportedAt,
          r.client ?? selection.client,
        ],
      );
      const served = toSelection(selection);
      const deltas = outcomeStatsDeltas(served, r.reward, r.baseline, selection.version);
      deltas.push(...(await this.settleContrasts(sql, served, r.selectionId, r.reward)));
      if (deltas.length > 0) await this.libraries.addStats(sql, selection.domain, deltas);
      return (await this.outcomeBySelection(sql, r.selectionId))!;
    });
  }

  async getSelection(
    selectionId: string,
  ): Promise<{ selection: ServedSelection; outcome: StoredOutcome | null } | null> {
    // A selection never changes once recorded, and its outcome is written once: two reads are consistent.
    const row = await this.selectionRow(this.connection, selectionId);
    if (!row) return null;
    return {
      selection: toSelection(row),
      outcome: await this.outcomeBySelection(this.connection, selectionId),
    };
  }

  async listOutcomes(filter: OutcomeFilter): Promise<StoredOutcome[]> {
    const f = parseOutcomeFilter(filter);
    const clauses: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, ...values: unknown[]) => {
      params.push(...values);
      clauses.push(clause.replace("?", `$${params.length}`));
    };
    add("o.domain = ?", f.domain);
    if (f.after !== undefined) add("o.seq > ?", f.after);
    if (f.since !== undefined) add("o.reported_at >= ?", f.since.toISOString());
    if (f.until !== undefined) add("o.reported_at < ?", f.until.toISOString());
    if (f.version === null) add("o.version IS NULL");
    else if (f.version !== undefined) add("o.version = ?", f.version);
    if (f.consumed !== undefined) add(f.consumed ? "o.consumed_by IS NOT NULL" : "o.consumed_by IS NULL");
    if (!f.includeExcluded) add(excludedClientsClause);
    const where = clauses.join(" AND ");
    const from = "FROM outcomes o JOIN served_selections s USING (selection_id)";
    let text: string;
    if (f.latest !== undefined) {
      params.push(f.latest, f.limit ?? null);
      text = `SELECT * FROM (SELECT ${outcomeColumns} ${from} WHERE ${where} ORDER BY o.seq DESC
        LIMIT $${params.length - 1}) latest ORDER BY seq LIMIT $${params.length}`;
    } else {
      params.push(f.limit ?? null);
      text = `SELECT ${outcomeColumns} ${from} WHERE ${where} ORDER BY o.seq LIMIT $${params.length}`;
    }
    return (await this.connection.query<OutcomeRow>(text, params)).rows.map(toOutcome);
  }

  async markConsumed(
    domain: string,
    selectionIds: readonly string[],
    reflectionId: string,
    options: ReportOptions = {},
  ): Promise<number> {
    const ids = parseMarkConsumed(domain, selectionIds, reflectionId);
    const at = (options.now ?? this.connection.now()).toISOString();
    return this.connection.transaction(async (sql) => {
      const found = new Set(
        (
          await sql.query<{ selection_id: string }>(
            "SELECT selection_id FROM outcomes WHERE domain = $1 AND selection_id = ANY($2::text[]) FOR UPDATE",
            [domain, ids],
          )
        ).rows.map((row) => row.selection_id),
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
      const result = await sql.query(
        `UPDATE outcomes SET consumed_by = $1, consumed_at = $2
         WHERE domain = $3 AND consumed_by IS NULL AND selection_id = ANY($4::text[])`,
        [reflectionId, at, domain, ids],
      );
      return result.rowCount ?? 0;
    });
  }

  async countOutcomes(domain: string): Promise<OutcomeCounts> {
    checkDomain(domain);
    // One statement: the counts come from one snapshot.
    const row = (
      await this.connection.query<OutcomeCounts>(
        `SELECT (SELECT count(*)::int FROM served_selections WHERE domain = $1) AS served,
           count(*)::int AS reported, (count(*) FILTER (WHERE success))::int AS successes,
           (count(*) FILTER (WHERE consumed_by IS NULL))::int AS unconsumed
         FROM outcomes WHERE domain = $1`,
        [domain],
      )
    ).rows[0]!;
    return {
      served: row.served,
      reported: row.reported,
      successes: row.successes,
      unconsumed: row.unconsumed,
    };
  }

  /**
   * The contrasts this report completes, inside its transaction (see `OutcomeStore.reportOutcome`). The waiting rows
   * are locked and deleted by the report that pairs them, so two reports of one stratum never consume a row twice.
   */
  private async settleContrasts(
    sql: Sql,
    selection: ServedSelection,
    selectionId: string,
    reward: number,
  ): Promise<StatsDelta[]> {
    const { stratum, domain } = selection;
    if (stratum === undefined) return [];
    const deltas: StatsDelta[] = [];
    for (const arm of variedArms(selection)) {
      const ordinal = experienceOrdinal(arm.id);
      const waiting = (
        await sql.query<{ selection_id: string; shown: boolean; reward: number }>(
          `SELECT selection_id, shown, reward FROM contrast_pending
           WHERE domain = $1 AND ordinal = $2 AND stratum = $3 ORDER BY selection_id FOR UPDATE`,
          [domain, ordinal, stratum],
        )
      ).rows.map((row) => ({ selectionId: row.selection_id, shown: row.shown, reward: Number(row.reward) }));
      const settled = settleContrast(waiting, { selectionId, shown: arm.shown, reward });
      if (settled.difference === null) {
        await sql.query(
          `INSERT INTO contrast_pending (domain, ordinal, stratum, selection_id, shown, reward)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [domain, ordinal, stratum, selectionId, arm.shown, reward],
        );
        continue;
      }
      await sql.query(
        `DELETE FROM contrast_pending WHERE domain = $1 AND ordinal = $2 AND stratum = $3
           AND selection_id = ANY($4::text[])`,
        [domain, ordinal, stratum, settled.consumed],
      );
      deltas.push({
        id: arm.id,
        contrast: addContrast(emptyContrast(), settled.difference),
        lastUsedVersion: selection.version,
      });
    }
    return deltas;
  }

  private async selectionRow(sql: Sql, selectionId: string, lock = false): Promise<SelectionRow | undefined> {
    return (
      await sql.query<SelectionRow>(
        `SELECT ${selectionColumns} FROM served_selections WHERE selection_id = $1${lock ? " FOR UPDATE" : ""}`,
        [selectionId],
      )
    ).rows[0];
  }

  private async outcomeBySelection(sql: Sql, selectionId: string): Promise<StoredOutcome | null> {
    const row = (
      await sql.query<OutcomeRow>(
        `SELECT ${outcomeColumns} FROM outcomes o JOIN served_selections s USING (selection_id)
         WHERE o.selection_id = $1`,
        [selectionId],
      )
    ).rows[0];
    return row ? toOutcome(row) : null;
  }
}
