import { addContrast, emptyContrast, TfgrpoError } from "@tfgrpo/protocol";
import { experienceOrdinal } from "../library/plan-operations.js";
import type { StatsDelta } from "../library-store.js";
import {
  alreadyReported,
  expiredSelection,
  outcomeStatsDeltas,
  type SelectionRow,
  toSelection,
} from "../outcome-rows.js";
import type { OutcomeReport, ServedSelection, StoredOutcome } from "../outcome-store.js";
import { settleContrast, variedArms } from "../settle-contrast.js";
import type { SqlLibraryStore } from "./sql-library-store.js";
import { all, allMany, type Dialect, run, type Sql } from "./sql-port.js";

export const selectionColumns =
  "selection_id, domain, version, entry_ids, exploration_ids, task, served_at, meta, withheld_ids, stratum, client";

/** One report of a batch, with the time it came in and the deadline it is held to. */
export interface PendingReport {
  report: OutcomeReport;
  at: Date;
  deadlineMs: number | undefined;
}

export type BatchResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

const notFound = (selectionId: string) =>
  new TfgrpoError(
    "not_found",
    `unknown selection ${selectionId}: report the selectionId returned by get_experiences`,
    { details: { selectionId } },
  );

/**
 * The reports of a batch inside one write transaction: their selections (locked in id order on PostgreSQL, so two
 * batches sharing selections take turns and never deadlock), one multi-row INSERT of the outcomes, the credit of
 * every entry in one `addStats` per domain. A report's own refusal (unknown, already reported, past its deadline) is
 * its result, not a throw; a refusal only the credit finds (an unknown entry id) throws, and the caller runs the
 * batch's reports one by one.
 */
export function* writeOutcomeBatch(
  dialect: Dialect,
  libraries: SqlLibraryStore,
  batch: readonly PendingReport[],
): Sql<BatchResult<StoredOutcome>[]> {
  const ids = [...new Set(batch.map((pending) => pending.report.selectionId))].sort();
  const selections = new Map(
    (yield* all<SelectionRow>(
      `SELECT ${selectionColumns}, expired_at FROM served_selections WHERE ${dialect.inList("selection_id", "text")}
       ORDER BY selection_id${dialect.forUpdate}`,
      [ids],
    )).map((row) => [row.selection_id, row]),
  );
  const reported = new Map<string, string>();
  const results: BatchResult<StoredOutcome>[] = [];
  const accepted: Array<{ index: number; pending: PendingReport; row: SelectionRow; reportedAt: string }> =
    [];
  batch.forEach((pending, index) => {
    const { selectionId } = pending.report;
    const row = selections.get(selectionId);
    const earlier = reported.get(selectionId);
    const refusal = !row
      ? notFound(selectionId)
      : earlier !== undefined
        ? alreadyReported(selectionId, earlier)
        : expiredSelection(row, pending.at, pending.deadlineMs);
    if (refusal || !row) {
      results[index] = { ok: false, error: refusal };
      return;
    }
    const reportedAt = pending.at.toISOString();
    reported.set(selectionId, reportedAt);
    accepted.push({ index, pending, row, reportedAt });
  });
  if (accepted.length === 0) return results;
  // A report committed by another transaction conflicts on the UNIQUE selection_id and is skipped here (the
  // selections are locked, so it is visible); only then is its time read for the refusal.
  const inserted = yield* allMany<{ selection_id: string; seq: number | string }>(
    `INSERT INTO outcomes (selection_id, domain, version, reward, success, feedback, trajectory, summary,
       cited_ids, reported_at, client)`,
    ["text", "text", "int", "float8", "bool", "text", "text", "text", "text", "text", "text"],
    accepted.map(({ pending: { report: r }, row, reportedAt }) => [
      r.selectionId,
      row.domain,
      row.version,
      r.reward,
      r.success,
      r.feedback ?? null,
      r.trajectory === undefined ? null : JSON.stringify(r.trajectory),
      r.summary ?? null,
      JSON.stringify(r.citedIds ?? []),
      reportedAt,
      // The reporting client's, else its selection's (migration 7).
      r.client ?? row.client,
    ]),
    "ON CONFLICT (selection_id) DO NOTHING RETURNING selection_id, seq",
  );
  const seqs = new Map(inserted.map((row) => [row.selection_id, Number(row.seq)]));
  if (seqs.size < accepted.length) {
    const taken = accepted.filter((a) => !seqs.has(a.pending.report.selectionId));
    const earlier = new Map(
      (yield* all<{ selection_id: string; reported_at: string }>(
        `SELECT selection_id, reported_at FROM outcomes WHERE ${dialect.inList("selection_id", "text")}`,
        [taken.map((a) => a.pending.report.selectionId)],
      )).map((row) => [row.selection_id, row.reported_at]),
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
    deltas.push(...(yield* settleContrasts(dialect, served, r.selectionId, r.reward)));
    deltasByDomain.set(row.domain, deltas);
  }
  for (const [domain, deltas] of [...deltasByDomain].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (deltas.length > 0) yield* libraries.addStats(domain, deltas);
  }
  for (const { index, pending, row, reportedAt } of accepted) {
    const r = pending.report;
    // What was just written, without reading it back (a trajectory may be large).
    results[index] = {
      ok: true,
      value: {
        ...toSelection({ ...row, client: r.client ?? row.client }),
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

/**
 * The contrasts a report completes, inside its transaction (see `OutcomeStore.reportOutcome`). The waiting rows are
 * locked (PostgreSQL) and deleted by the report that pairs them, so two reports of one stratum never consume a row
 * twice.
 */
function* settleContrasts(
  dialect: Dialect,
  selection: ServedSelection,
  selectionId: string,
  reward: number,
): Sql<StatsDelta[]> {
  const { stratum, domain } = selection;
  if (stratum === undefined) return [];
  const deltas: StatsDelta[] = [];
  for (const arm of variedArms(selection)) {
    const ordinal = experienceOrdinal(arm.id);
    const waiting = (yield* all<{ selection_id: string; shown: boolean | number; reward: number }>(
      `SELECT selection_id, shown, reward FROM contrast_pending
         WHERE domain = ? AND ordinal = ? AND stratum = ? ORDER BY selection_id${dialect.forUpdate}`,
      [domain, ordinal, stratum],
    )).map((row) => ({
      selectionId: row.selection_id,
      shown: row.shown === true || row.shown === 1,
      reward: Number(row.reward),
    }));
    const settled = settleContrast(waiting, { selectionId, shown: arm.shown, reward });
    if (settled.difference === null) {
      yield* run(
        `INSERT INTO contrast_pending (domain, ordinal, stratum, selection_id, shown, reward)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [domain, ordinal, stratum, selectionId, arm.shown, reward],
      );
      continue;
    }
    yield* run(
      `DELETE FROM contrast_pending WHERE domain = ? AND ordinal = ? AND stratum = ?
         AND ${dialect.inList("selection_id", "text")}`,
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
