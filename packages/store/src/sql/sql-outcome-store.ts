import { TfgrpoError } from "@tfgrpo/protocol";
import { checkDomain } from "../base-library-store.js";
import {
  excludedClientsClause,
  type OutcomeRow,
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
import type { SqlLibraryStore } from "./sql-library-store.js";
import { all, get, run, type Sql, type SqlPort } from "./sql-port.js";
import {
  type BatchResult,
  type PendingReport,
  selectionColumns,
  writeOutcomeBatch,
} from "./write-outcome-batch.js";

const outcomeColumns = `o.seq, o.reward, CAST(o.success AS INTEGER) AS success, o.feedback, o.trajectory, o.summary,
  o.cited_ids, o.reported_at, o.consumed_by, o.consumed_at, s.selection_id, s.domain, s.version, s.entry_ids,
  s.exploration_ids, s.task, s.served_at, s.meta, s.withheld_ids, s.stratum, coalesce(o.client, s.client) AS client`;
const joined = "FROM outcomes o JOIN served_selections s USING (selection_id)";

/** Reports written in one transaction at most, and batches of one process in flight at once. */
const maxReportBatch = 256;
const maxBatchesInFlight = 2;

type Queued = PendingReport & { resolve: (outcome: StoredOutcome) => void; reject: (error: unknown) => void };

/** A report's own refusal (as opposed to a failure of the server, the disk or the connection). */
function isRefusal(error: unknown): boolean {
  return TfgrpoError.isInstance(error) && ["not_found", "conflict", "invalid_input"].includes(error.code);
}

/**
 * Served selections and their outcomes (`served_selections`, `outcomes`) of a SQL store. A report is atomic: the
 * outcome row (UNIQUE on the selection) and the credit it gives (through the library store's `addStats`) land
 * together. Reports arriving together are written in one transaction (group commit, `writeOutcomeBatch`); each is
 * still refused on its own, and a refusal only the write finds makes the batch's reports run one by one.
 */
export class SqlOutcomeStore implements OutcomeStore {
  private readonly queue: Queued[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly db: SqlPort,
    private readonly libraries: SqlLibraryStore,
  ) {}

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
    const self = this;
    await this.db.groupCommit(function* () {
      const inserted = yield* run(
        `INSERT INTO served_selections (${selectionColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (selection_id) DO NOTHING`,
        values,
      );
      if (inserted === 1) return;
      const row = (yield* self.selectionRow(s.selectionId))!;
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
    });
  }

  async reportOutcome(report: OutcomeReport, options: ReportOptions = {}): Promise<StoredOutcome> {
    const r = parseReport(report);
    const at = options.now ?? this.db.now();
    return new Promise<StoredOutcome>((resolve, reject) => {
      this.queue.push({ report: r, at, deadlineMs: options.deadlineMs, resolve, reject });
      this.schedule();
    });
  }

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
    const write = (reports: readonly Queued[]) =>
      this.db.write(() => writeOutcomeBatch(this.db.dialect, this.libraries, reports));
    try {
      let results: BatchResult<StoredOutcome>[];
      try {
        results = await write(batch);
      } catch (error) {
        if (batch.length === 1 || !isRefusal(error)) throw error;
        // A refusal inside the write (e.g. an unknown entry id in the credit): each report alone, so only it fails.
        results = await Promise.all(
          batch.map((pending) =>
            write([pending]).then(
              (one) => one[0]!,
              (failure: unknown): BatchResult<StoredOutcome> => ({ ok: false, error: failure }),
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

  async getSelection(
    selectionId: string,
  ): Promise<{ selection: ServedSelection; outcome: StoredOutcome | null } | null> {
    const self = this;
    // A selection never changes once recorded, and its outcome is written once: two reads are consistent.
    return this.db.read(function* () {
      const row = yield* self.selectionRow(selectionId);
      if (!row) return null;
      const outcome = yield* get<OutcomeRow>(`SELECT ${outcomeColumns} ${joined} WHERE o.selection_id = ?`, [
        selectionId,
      ]);
      return { selection: toSelection(row), outcome: outcome ? toOutcome(outcome) : null };
    });
  }

  async listOutcomes(filter: OutcomeFilter): Promise<StoredOutcome[]> {
    const f = parseOutcomeFilter(filter);
    const clauses: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, ...values: unknown[]) => {
      clauses.push(clause);
      params.push(...values);
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
    const limit = f.limit ?? this.db.dialect.noLimit;
    const rows = await this.db.run(() =>
      f.latest !== undefined
        ? all<OutcomeRow>(
            `SELECT * FROM (SELECT ${outcomeColumns} ${joined} WHERE ${where} ORDER BY o.seq DESC LIMIT ?) latest
             ORDER BY seq LIMIT ?`,
            [...params, f.latest, limit],
          )
        : all<OutcomeRow>(`SELECT ${outcomeColumns} ${joined} WHERE ${where} ORDER BY o.seq LIMIT ?`, [
            ...params,
            limit,
          ]),
    );
    return rows.map(toOutcome);
  }

  async markConsumed(
    domain: string,
    selectionIds: readonly string[],
    reflectionId: string,
    options: ReportOptions = {},
  ): Promise<number> {
    const ids = parseMarkConsumed(domain, selectionIds, reflectionId);
    const at = (options.now ?? this.db.now()).toISOString();
    const { dialect } = this.db;
    return this.db.write(function* () {
      const found = new Set(
        (yield* all<{ selection_id: string }>(
          `SELECT selection_id FROM outcomes WHERE domain = ? AND ${dialect.inList("selection_id", "text")}${dialect.forUpdate}`,
          [domain, ids],
        )).map((row) => row.selection_id),
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
      return yield* run(
        `UPDATE outcomes SET consumed_by = ?, consumed_at = ?
         WHERE domain = ? AND consumed_by IS NULL AND ${dialect.inList("selection_id", "text")}`,
        [reflectionId, at, domain, ids],
      );
    });
  }

  async countOutcomes(domain: string): Promise<OutcomeCounts> {
    checkDomain(domain);
    const n = (expression: string) => `CAST(coalesce(${expression}, 0) AS INTEGER)`;
    // One statement: the counts come from one snapshot. What retention compacted still counts (migration 6).
    const row = await this.db.run(() =>
      get<OutcomeCounts>(
        `WITH compacted AS (SELECT ${n("sum(served)")} AS served, ${n("sum(reported)")} AS reported,
             ${n("sum(successes)")} AS successes FROM outcome_aggregates WHERE domain = ?)
         SELECT (SELECT CAST(count(*) AS INTEGER) FROM served_selections WHERE domain = ?)
             + (SELECT served FROM compacted) AS served,
           CAST(count(*) AS INTEGER) + (SELECT reported FROM compacted) AS reported,
           ${n("sum(CASE WHEN success THEN 1 ELSE 0 END)")} + (SELECT successes FROM compacted) AS successes,
           ${n("sum(CASE WHEN consumed_by IS NULL THEN 1 ELSE 0 END)")} AS unconsumed
         FROM outcomes WHERE domain = ?`,
        [domain, domain, domain],
      ),
    );
    return {
      served: row!.served,
      reported: row!.reported,
      successes: row!.successes,
      unconsumed: row!.unconsumed,
    };
  }

  private selectionRow(selectionId: string): Sql<SelectionRow | undefined> {
    return get<SelectionRow>(
      `SELECT ${selectionColumns}, expired_at FROM served_selections WHERE selection_id = ?`,
      [selectionId],
    );
  }
}
