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
import type { PostgresConnection, Sql } from "./postgres-connection.js";
import { drive } from "./postgres-port.js";

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
/** Reports written in one transaction at most. */
const maxReportBatch = 256;
/** Batches of one process in flight at once (the next gathers while these commit). */
const maxBatchesInFlight = 2;

interface PendingReport {
  report: OutcomeReport;
  at: Date;
  deadlineMs: number | undefined;
  resolve: (outcome: StoredOutcome) => void;
  reject: (error: unknown) => void;
}

type BatchResult = { ok: true; value: StoredOutcome } | { ok: false; error: unknown };

/** A report's own refusal (as opposed to a failure of the server or the connection). */
function isRefusal(error: unknown): boolean {
  return TfgrpoError.isInstance(error) && ["not_found", "conflict", "invalid_input"].includes(error.code);
}

export class PostgresOutcomeStore implements OutcomeStore {
  private readonly connection: PostgresConnection;
  private readonly libraries: SqlLibraryStore;

  constructor(connection: PostgresConnection, libraries: SqlLibraryStore) {
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

  /**
   * Reports arriving together are written in one transaction (group commit, like SQLite's batcher): their selections
   * locked in id order, one multi-row INSERT of the outcomes, the credit of every entry in one statement per domain.
   * Each report is still refused on its own (`not_found`, `conflict`, past its deadline) without failing the others;
   * a refusal that only the write finds (an unknown entry id in the credit) makes the batch's reports run one by one,
   * so that report alone fails. A failure of the server fails every report of the batch, none written.
   */
  async reportOutcome(report: OutcomeReport, options: ReportOptions = {}): Promise<StoredOutcome> {
    const r = parseReport(report);
    const at = options.now ?? this.connection.now();
    return new Promise<StoredOutcome>((resolve, reject) => {
      this.queue.push({ report: r, at, deadlineMs: options.deadlineMs, resolve, reject });
      this.schedule();
    });
  }

  private readonly queue: PendingReport[] = [];
  private scheduled = false;
  private inFlight = 0;

  private schedule(): void {
    if (this.scheduled || this.inFlight >= maxBatchesInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, maxReportBatch);
    if (batch.length === 0) return;
    this.inFlight++;
    this.schedule();
    try {
      let results: BatchResult[];
      try {
        results = await this.connection.transaction((sql) => this.writeBatch(sql, batch));
      } catch (error) {
        if (batch.length === 1 || !isRefusal(error)) throw error;
        // A refusal inside the write (e.g. an unknown entry id in the credit): each report alone, so only it fails.
        results = await Promise.all(
          batch.map((pending) =>
            this.connection
              .transaction((sql) => this.writeBatch(sql, [pending]))
              .then(
                (one) => one[0]!,
                (failure: unknown): BatchResult => ({ ok: false, error: failure }),
              ),
          ),
        );
      }
      batch.forEach((pending, index) => {
        const result = results[index]!;
        if (result.ok) pending.resolve(result.value);
        else pending.reject(result.error);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }

  /** The reports of a batch inside one transaction; refusals are results, not throws. */
  private async writeBatch(sql: Sql, batch: readonly PendingReport[]): Promise<BatchResult[]> {
    const ids = [...new Set(batch.map((pending) => pending.report.selectionId))].sort();
    // Locked in id order: two batches sharing selections take turns and never deadlock on them.
    const selections = new Map(
      (
        await sql.query<SelectionRow>(
          `SELECT ${selectionColumns}, expired_at FROM served_selections WHERE selection_id = ANY($1::text[])
           ORDER BY selection_id FOR UPDATE`,
          [ids],
        )
      ).rows.map((row) => [row.selection_id, row]),
    );
    // Reports already stored are found by the INSERT below (ON CONFLICT): no read of the outcomes before it.
    const reported = new Map<string, string>();
    const results: BatchResult[] = [];
    const accepted: Array<{ index: number; pending: PendingReport; row: SelectionRow; reportedAt: string }> =
      [];
    batch.forEach((pending, index) => {
      const r = pending.report;
      const row = selections.get(r.selectionId);
      if (!row) {
        results[index] = {
          ok: false,
          error: new TfgrpoError(
            "not_found",
            `unknown selection ${r.selectionId}: report the selectionId returned by get_experiences`,
            { details: { selectionId: r.selectionId } },
          ),
        };
        return;
      }
      const earlier = reported.get(r.selectionId);
      if (earlier !== undefined) {
        results[index] = { ok: false, error: alreadyReported(r.selectionId, earlier) };
        return;
      }
      const expired = expiredSelection(row, pending.at, pending.deadlineMs);
      if (expired) {
        results[index] = { ok: false, error: expired };
        return;
      }
      const reportedAt = pending.at.toISOString();
      reported.set(r.selectionId, reportedAt);
      accepted.push({ index, pending, row, reportedAt });
    });
    if (accepted.length === 0) return results;
    const column = <T>(pick: (item: (typeof accepted)[number]) => T) => accepted.map(pick);
    // The selections are locked, so a report committed by another transaction is visible to this statement: it
    // conflicts on the UNIQUE selection_id and is skipped, and only then is its time read for the refusal.
    const inserted = await sql.query<{ selection_id: string; seq: number }>(
      `INSERT INTO outcomes (selection_id, domain, version, reward, success, feedback, trajectory, summary,
         cited_ids, reported_at, client)
       SELECT selection_id, domain, version, reward, success, feedback, trajectory, summary, cited_ids, reported_at,
         client
       FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[], $5::bool[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::text[], $11::text[]) WITH ORDINALITY
         AS t(selection_id, domain, version, reward, success, feedback, trajectory, summary, cited_ids, reported_at,
           client, n)
       ORDER BY n
       ON CONFLICT (selection_id) DO NOTHING
       RETURNING selection_id, seq`,
      [
        column((a) => a.pending.report.selectionId),
        column((a) => a.row.domain),
        column((a) => a.row.version),
        column((a) => a.pending.report.reward),
        column((a) => a.pending.report.success),
        column((a) => a.pending.report.feedback ?? null),
        column((a) =>
          a.pending.report.trajectory === undefined ? null : JSON.stringify(a.pending.report.trajectory),
        ),
        column((a) => a.pending.report.summary ?? null),
        column((a) => JSON.stringify(a.pending.report.citedIds ?? [])),
        column((a) => a.reportedAt),
        // The reporting client's, else its selection's (migration 7).
        column((a) => a.pending.report.client ?? a.row.client),
      ],
    );
    const seqs = new Map(inserted.rows.map((row) => [row.selection_id, Number(row.seq)]));
    if (seqs.size < accepted.length) {
      const taken = accepted.filter((a) => !seqs.has(a.pending.report.selectionId));
      const earlier = new Map(
        (
          await sql.query<{ selection_id: string; reported_at: string }>(
            "SELECT selection_id, reported_at FROM outcomes WHERE selection_id = ANY($1::text[])",
            [taken.map((a) => a.pending.report.selectionId)],
          )
        ).rows.map((row) => [row.selection_id, row.reported_at]),
      );
      for (const a of taken) {
        const id = a.pending.report.selectionId;
        results[a.index] = { ok: false, error: alreadyReported(id, earlier.get(id) ?? "an earlier time") };
      }
      accepted.splice(0, accepted.length, ...accepted.filter((a) => seqs.has(a.pending.report.selectionId)));
    }
    const deltasByDomain = new Map<string, StatsDelta[]>();
    for (const { pending, row } of accepted) {
      const r = pending.report;
      const served = toSelection(row);
      const deltas = deltasByDomain.get(row.domain) ?? [];
      deltas.push(...outcomeStatsDeltas(served, r.reward, r.baseline, row.version));
      deltas.push(...(await this.settleContrasts(sql, served, r.selectionId, r.reward)));
      deltasByDomain.set(row.domain, deltas);
    }
    for (const [domain, deltas] of [...deltasByDomain].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (deltas.length > 0) await drive(sql, this.libraries.addStats(domain, deltas));
    }
    for (const { index, pending, row, reportedAt } of accepted) {
      const r = pending.report;
      // What was just written, without reading it back (a trajectory may be large).
      results[index] = {
        ok: true,
        value: {
          ...toSelection(row),
          ...(r.client === undefined ? {} : { client: r.client }),
          seq: seqs.get(r.selectionId)!,
          reward: r.reward,
          success: r.success,
          feedback: r.feedback ?? null,
          trajectory: r.trajectory ?? null,
          summary: r.summary ?? null,
          citedIds: r.citedIds ?? [],
          reportedAt,
          consumedBy: null,
          consumedAt: null,
        },
      };
    }
    return results;
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
        `WITH compacted AS (SELECT coalesce(sum(served), 0)::int AS served, coalesce(sum(reported), 0)::int AS reported,
             coalesce(sum(successes), 0)::int AS successes FROM outcome_aggregates WHERE domain = $1)
         SELECT (SELECT count(*)::int FROM served_selections WHERE domain = $1) + (SELECT served FROM compacted) AS served,
           count(*)::int + (SELECT reported FROM compacted) AS reported,
           (count(*) FILTER (WHERE success))::int + (SELECT successes FROM compacted) AS successes,
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
