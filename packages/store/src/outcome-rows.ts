import { TfgrpoError } from "@tfgrpo/protocol";
import type { StatsDelta } from "./library-store.js";
import type { ServedSelection, StoredOutcome } from "./outcome-store.js";
import { deadlineCutoff, formatDeadline, pastDeadline } from "./retention.js";
import { readStoredJson } from "./sql/stored-json.js";

/** Served selections and outcomes as every backend stores them (`served_selections`, `outcomes`). */

export interface SelectionRow {
  selection_id: string;
  domain: string;
  version: number | null;
  entry_ids: string;
  exploration_ids: string;
  /** JSON list; '[]' for selections recorded before migration 4. */
  withheld_ids: string;
  stratum: string | null;
  task: string;
  served_at: string;
  meta: string | null;
  /** NULL before migration 7, and for anonymous clients. */
  client: string | null;
  /** Set by the expiry sweep (migration 6): the selection counts as "no report". */
  expired_at?: string | null;
}

export interface OutcomeRow extends SelectionRow {
  seq: number;
  reward: number;
  /** 1 or 0. */
  success: number;
  feedback: string | null;
  trajectory: string | null;
  summary: string | null;
  cited_ids: string;
  reported_at: string;
  consumed_by: string | null;
  consumed_at: string | null;
}

/**
 * The filter every backend's `listOutcomes` applies unless `includeExcluded`: an outcome whose client an operator
 * excluded (`ClientStore.setClientExcluded`) is not read. NOT EXISTS keeps anonymous outcomes (client NULL).
 */
export const excludedClientsClause = `NOT EXISTS (SELECT 1 FROM client_exclusions x
  WHERE x.domain = o.domain AND x.client = coalesce(o.client, s.client))`;

export function alreadyReported(selectionId: string, reportedAt: string): TfgrpoError {
  return new TfgrpoError(
    "conflict",
    `selection ${selectionId} was already reported at ${reportedAt}; an outcome counts once`,
    { details: { selectionId, reportedAt } },
  );
}

export function toSelection(row: SelectionRow): ServedSelection {
  const where = `served_selections row ${row.selection_id}`;
  return {
    selectionId: row.selection_id,
    domain: row.domain,
    version: row.version,
    entryIds: readStoredJson<string[]>(row.entry_ids, where),
    explorationIds: readStoredJson<string[]>(row.exploration_ids, where),
    task: row.task,
    servedAt: row.served_at,
    ...(row.meta === null ? {} : { meta: readStoredJson<Record<string, unknown>>(row.meta, where) }),
    ...withheldOf(row, where),
    ...(row.client === null || row.client === undefined ? {} : { client: row.client }),
    ...(row.stratum === null ? {} : { stratum: row.stratum }),
  };
}

function withheldOf(row: SelectionRow, where: string): { withheldIds?: string[] } {
  const withheld = readStoredJson<string[]>(row.withheld_ids, where);
  return withheld.length === 0 ? {} : { withheldIds: withheld };
}

export function toOutcome(row: OutcomeRow): StoredOutcome {
  const where = `outcomes row ${row.seq}`;
  return {
    ...toSelection(row),
    seq: row.seq,
    reward: row.reward,
    success: row.success === 1,
    feedback: row.feedback,
    trajectory: row.trajectory === null ? null : readStoredJson<unknown>(row.trajectory, where),
    summary: row.summary,
    citedIds: readStoredJson<string[]>(row.cited_ids, where),
    reportedAt: row.reported_at,
    consumedBy: row.consumed_by,
    consumedAt: row.consumed_at,
  };
}

/**
 * What a reported outcome adds to the shared counters of every entry its selection showed: one showing, the reward as
 * success, and the reward against the caller's baseline when it gave one. The contrasts come apart (`settleContrast`).
 */
export function outcomeStatsDeltas(
  served: ServedSelection,
  reward: number,
  baseline: number | undefined,
  version: number | null,
): StatsDelta[] {
  return served.entryIds.map((id) => ({
    id,
    shown: 1,
    success: reward,
    sumDelta: baseline === undefined ? 0 : reward - baseline,
    lastUsedVersion: version,
  }));
}

/**
 * The refusal of a report whose selection expired (marked by the sweep, or past `deadlineMs` before `now`); null when
 * it may be reported.
 */
export function expiredSelection(
  row: SelectionRow,
  now: Date,
  deadlineMs: number | undefined,
): TfgrpoError | null {
  if (row.expired_at != null)
    return pastDeadline(row.selection_id, row.served_at, `expired ${row.expired_at}`);
  if (deadlineMs !== undefined && row.served_at < deadlineCutoff(now, deadlineMs)) {
    return pastDeadline(row.selection_id, row.served_at, formatDeadline(deadlineMs));
  }
  return null;
}
