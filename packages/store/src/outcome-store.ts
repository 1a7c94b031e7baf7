/**
 * What a served library learns from: every selection the library service hands out (which version, which entries,
 * which of them were exploration picks, for which task) and the outcome its client reports for it.
 *
 * A selection is recorded when it is served; its outcome arrives later, at most once: `selectionId` is the key that
 * makes reporting exactly-once (a second report of the same selection is refused with `conflict`, never counted
 * twice, whatever the process or connection it comes from). Reporting also adds the outcome to the credit stats of
 * the entries the selection showed (`shown` + 1, `success` + reward, `sumDelta` + reward - baseline when a baseline
 * is given, `lastUsedVersion` = the version served) in the
 * same transaction, so an outcome is either stored with its credit or not at all.
 *
 * Outcomes are read in report order through `seq`, a per-store increasing number: a reflection reads "everything
 * after the cursor I consumed last", a trigger reads "the last N of this domain". Outcomes a reflection used are
 * marked consumed by it (once: the first reflection to mark an outcome owns it).
 */

/** A selection as served: recorded before the client sees it. */
export interface ServedSelection {
  /** Unique, chosen by the service (e.g. a UUID). */
  selectionId: string;
  domain: string;
  /** The library version the entries came from; null when the domain had no committed version (nothing shown). */
  version: number | null;
  /** Every entry id shown, in prompt order; exploration picks included. */
  entryIds: string[];
  /**
   * The subset of `entryIds` that was shown as the exploration arm: entries whose effect is uncertain, shown to this
   * request at random (or, before online contrasts, the forced candidate slot).
   */
  explorationIds: string[];
  /**
   * The uncertain entries drawn into the withheld arm: selected for the task but not shown (disjoint from `entryIds`).
   * Absent: none.
   */
  withheldIds?: string[];
  /**
   * The stratum of similar tasks (a task family, an embedding bucket) whose reports this one is compared with; with
   * it, reporting the outcome also settles the controlled contrast of every varied entry (see `reportOutcome`).
   * Absent: no contrast.
   */
  stratum?: string;
  /** The task text the selection was made for. */
  task: string;
  /** ISO time it was served. */
  servedAt: string;
  /** Free-form labels of the serving side (client name, canary arm, ...), stored as JSON. */
  meta?: Record<string, unknown>;
  /**
   * The client the request came from, as its token named it (absent: anonymous). On a stored outcome: the client
   * that reported it, else the selection's.
   */
  client?: string;
}

/** What a client reports about one selection. The service normalizes reward/success before it reaches the store. */
export interface OutcomeReport {
  selectionId: string;
  /** In [0, 1]. */
  reward: number;
  success: boolean;
  /** Free text from the user or an evaluator, e.g. why it failed. */
  feedback?: string;
  /** The agent's trajectory (any JSON, e.g. its messages), secrets already removed. */
  trajectory?: unknown;
  /** A short summary, when the client does not send its trajectory. */
  summary?: string;
  /** Entry ids the agent says it used (a subset of what was shown, or other ids of the domain). */
  citedIds?: string[];
  /**
   * The reward this outcome is compared with (e.g. the domain's recent mean): the shown entries' `sumDelta` gets
   * `reward - baseline`, the online stand-in for "reward minus its group's mean". Without it `sumDelta` is unchanged.
   */
  baseline?: number;
  /** The reporting client, as its token named it (absent: anonymous, or the selection's client). */
  client?: string;
}

/** A selection with its outcome, as stored. */
export interface StoredOutcome extends ServedSelection {
  /** Increasing in report order across the whole store: the cursor for `listOutcomes({ after })`. */
  seq: number;
  reward: number;
  success: boolean;
  feedback: string | null;
  trajectory: unknown;
  summary: string | null;
  citedIds: string[];
  /** ISO time the outcome was reported. */
  reportedAt: string;
  /** The reflection that consumed the outcome, null while unconsumed. */
  consumedBy: string | null;
  consumedAt: string | null;
}

export interface OutcomeFilter {
  domain: string;
  /** Only outcomes with `seq` greater than this cursor. */
  after?: number;
  /** Reported at or after this time (inclusive). */
  since?: Date;
  /** Reported before this time (exclusive). */
  until?: Date;
  /** Only outcomes of selections served from this version (null: served from the empty library). */
  version?: number | null;
  /** true: only consumed ones; false: only unconsumed ones. */
  consumed?: boolean;
  /** At most this many, the FIRST ones in report order (after the other filters). */
  limit?: number;
  /** Only the LAST this many in report order (after the other filters), still returned oldest first. */
  latest?: number;
  /**
   * Also the outcomes of clients an operator excluded (`ClientStore.setClientExcluded`). Default false: what a learner
   * reads never holds an excluded client's outcomes.
   */
  includeExcluded?: boolean;
}

export interface ReportOptions {
  now?: Date;
  /**
   * The report deadline: a selection served longer than this before `now` counts as "no report" and its late report
   * is refused (`conflict`), as is the report of a selection the expiry sweep already marked. Default: no deadline
   * (only marked selections are refused).
   */
  deadlineMs?: number;
}

export interface OutcomeCounts {
  /** Selections served (with or without an outcome), compacted ones included. */
  served: number;
  /** Outcomes reported, compacted ones included. */
  reported: number;
  successes: number;
  /** Reported and not yet consumed by a reflection. */
  unconsumed: number;
}

export interface OutcomeStore {
  /**
   * Records a served selection. The same id twice is `conflict` unless the record is identical (a retried write is
   * harmless). Refused (`invalid_input`) when an exploration id is not among the entry ids.
   */
  recordSelection(selection: ServedSelection): Promise<void>;
  /**
   * Stores the outcome of a recorded selection and credits its entries, in one transaction. When the selection has
   * a stratum, each varied entry (exploration or withheld arm) also gets its controlled contrast: the report waits in
   * the entry's stratum until a report of the other arm arrives, and then the stratum's waiting reports make one
   * difference (mean reward shown - mean reward withheld, `settleContrast`) added to the entry's `stats.contrast`,
   * the waiting reports deleted in the same transaction (each report counts in one difference). `not_found` for an
   * unknown selection, `conflict` (naming the selection and when it was reported) for one already reported; in
   * both cases nothing changes.
   */
  reportOutcome(report: OutcomeReport, options?: ReportOptions): Promise<StoredOutcome>;
  /** A selection with its outcome when one was reported; null for an unknown id. */
  getSelection(
    selectionId: string,
  ): Promise<{ selection: ServedSelection; outcome: StoredOutcome | null } | null>;
  /** Reported outcomes of a domain in report order (`seq` ascending); excluded clients' only with `includeExcluded`. */
  listOutcomes(filter: OutcomeFilter): Promise<StoredOutcome[]>;
  /**
   * Marks outcomes as consumed by a reflection. Outcomes already consumed (by any reflection) are left as they are;
   * an id that is not a reported outcome of the domain refuses them all (`not_found`). Returns how many were marked.
   */
  markConsumed(
    domain: string,
    selectionIds: readonly string[],
    reflectionId: string,
    options?: ReportOptions,
  ): Promise<number>;
  countOutcomes(domain: string): Promise<OutcomeCounts>;
}
