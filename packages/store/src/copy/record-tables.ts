/**
 * Everything a database holds beside its libraries, as `db copy` moves it: runs and their state, trajectories and
 * usage, served selections and their outcomes (with their clients), the contrasts waiting for their other arm, the
 * per-version contrasts, what retention compacted, the excluded clients and the online learners' state (not their
 * lease). Leakage fingerprints are not copied: a run writes them again when it next consolidates. The same tables and columns in every backend (see the migrations); values keep their
 * stored text (times, JSON), so a copied row reads back byte for byte as the original.
 */
export interface RecordColumn {
  name: string;
  /** The PostgreSQL array element type used to write it (`unnest($n::type[])`). */
  pgType: "text" | "int" | "bigint" | "float8" | "bool";
}

export interface RecordTable {
  name: string;
  columns: readonly RecordColumn[];
  /** The primary key: the order rows are read in, and what a clash is. */
  key: readonly string[];
  /**
   * Which rows belong to the copied libraries when `--domain` is given: by their `domain` column, by the run they
   * belong to (`run_id` of a run of those domains), or by the selection's domain.
   */
  scope: "domain" | "run";
  /** A store-assigned increasing number (`seq`): kept when the target has none, else moved after the target's. */
  sequence?: boolean;
}

const col = (name: string, pgType: RecordColumn["pgType"] = "text"): RecordColumn => ({ name, pgType });

/** In the order they are written (a selection before its outcome). */
export const recordTables: readonly RecordTable[] = [
  {
    name: "runs",
    columns: [col("id"), col("kind"), col("domain"), col("status"), col("started_at"), col("record")],
    key: ["id"],
    scope: "domain",
  },
  {
    name: "run_state",
    columns: [col("run_id"), col("key"), col("value"), col("updated_at")],
    key: ["run_id", "key"],
    scope: "run",
  },
  {
    name: "trajectories",
    columns: [
      col("id"),
      col("run_id"),
      col("task_id"),
      col("group_id"),
      col("attempt", "int"),
      col("epoch", "int"),
      col("step", "int"),
      col("reward", "float8"),
      col("record"),
      col("stored_at"),
    ],
    key: ["id"],
    scope: "run",
  },
  {
    name: "usage_records",
    columns: [
      col("seq", "bigint"),
      col("id"),
      col("run_id"),
      col("role"),
      col("model"),
      col("input_tokens", "bigint"),
      col("cached_input_tokens", "bigint"),
      col("output_tokens", "bigint"),
      col("cost_usd", "float8"),
      col("latency_ms", "float8"),
      col("at"),
    ],
    key: ["seq"],
    scope: "run",
    sequence: true,
  },
  {
    // Kept beside usage_records as each record is written; copied as it is (the records are written directly).
    name: "usage_totals",
    columns: [
      col("run_id"),
      col("role"),
      col("model"),
      col("calls", "bigint"),
      col("input_tokens", "bigint"),
      col("cached_input_tokens", "bigint"),
      col("output_tokens", "bigint"),
      col("cost_usd", "float8"),
      col("latency_ms", "float8"),
    ],
    key: ["run_id", "role", "model"],
    scope: "run",
  },
  {
    name: "served_selections",
    columns: [
      col("selection_id"),
      col("domain"),
      col("version", "int"),
      col("entry_ids"),
      col("exploration_ids"),
      col("task"),
      col("served_at"),
      col("meta"),
      col("withheld_ids"),
      col("stratum"),
      col("expired_at"),
      col("client"),
    ],
    key: ["selection_id"],
    scope: "domain",
  },
  {
    name: "outcomes",
    columns: [
      col("seq", "bigint"),
      col("selection_id"),
      col("domain"),
      col("version", "int"),
      col("reward", "float8"),
      col("success", "bool"),
      col("feedback"),
      col("trajectory"),
      col("summary"),
      col("cited_ids"),
      col("reported_at"),
      col("consumed_by"),
      col("consumed_at"),
      col("client"),
    ],
    key: ["seq"],
    scope: "domain",
    sequence: true,
  },
  {
    name: "contrast_pending",
    columns: [
      col("domain"),
      col("ordinal", "int"),
      col("stratum"),
      col("selection_id"),
      col("shown", "bool"),
      col("reward", "float8"),
    ],
    key: ["domain", "ordinal", "stratum", "selection_id"],
    scope: "domain",
  },
  {
    name: "experience_version_contrasts",
    columns: [
      col("domain"),
      col("ordinal", "int"),
      col("version", "int"),
      col("n", "int"),
      col("sum", "float8"),
      col("sum_squares", "float8"),
    ],
    key: ["domain", "ordinal", "version"],
    scope: "domain",
  },
  {
    name: "outcome_aggregates",
    columns: [
      col("domain"),
      col("version", "int"),
      col("day"),
      col("served", "int"),
      col("reported", "int"),
      col("successes", "int"),
      col("reward_sum", "float8"),
      col("no_report", "int"),
    ],
    key: ["domain", "version", "day"],
    scope: "domain",
  },
  {
    name: "entry_exposure_aggregates",
    columns: [
      col("domain"),
      col("entry_id"),
      col("version", "int"),
      col("shown", "int"),
      col("explored", "int"),
      col("withheld", "int"),
      col("reported", "int"),
      col("reward_sum", "float8"),
    ],
    key: ["domain", "entry_id", "version"],
    scope: "domain",
  },
  {
    name: "client_exclusions",
    columns: [col("domain"), col("client"), col("excluded_at"), col("reason")],
    key: ["domain", "client"],
    scope: "domain",
  },
  {
    // The learner's durable state and pause flag, not its lease: a learner on the target takes the lease afresh and
    // resumes the state (when outcomes' seq moved, its cursor is behind them: it re-reads some, never skips one).
    name: "online_learners",
    columns: [col("domain"), col("state"), col("state_updated_at"), col("paused", "bool"), col("paused_at")],
    key: ["domain"],
    scope: "domain",
  },
];

/** A row as both backends read and write it: numbers as numbers, booleans as 0/1, texts as stored. */
export type RecordRow = Record<string, string | number | null>;

/** Which rows to copy: all, or those of these domains (and of their runs). */
export type RecordScope = { domains: readonly string[] } | null;

/** Reading and writing the record tables of one backend. */
export interface RecordTablesAccess {
  readonly where: string;
  /** Up to `limit` rows of a table in key order, from `offset`. */
  read(table: RecordTable, scope: RecordScope, offset: number, limit: number): Promise<RecordRow[]>;
  count(table: RecordTable, scope: RecordScope): Promise<number>;
  /** The keys (joined with U+0001) of the rows of `table` whose key is among `keys`. */
  existing(table: RecordTable, keys: readonly RecordRow[]): Promise<Set<string>>;
  /** The largest `seq` of a sequence table, 0 when empty. */
  maxSequence(table: RecordTable): Promise<number>;
  /** Inserts rows in one transaction (the sequence moves past them); returns how many. */
  write(table: RecordTable, rows: readonly RecordRow[]): Promise<number>;
  close(): Promise<void>;
}

export const keyOf = (table: RecordTable, row: RecordRow): string =>
  table.key.map((column) => String(row[column])).join("\u0001");

/** Values as `RecordRow` holds them, whatever the driver returned (PostgreSQL: bigint as text, booleans). */
export function canonicalRow(table: RecordTable, raw: Record<string, unknown>): RecordRow {
  const row: RecordRow = {};
  for (const { name, pgType } of table.columns) {
    const value = raw[name];
    if (value === null || value === undefined) row[name] = null;
    else if (pgType === "bool") row[name] = value === true || value === 1 || value === "1" ? 1 : 0;
    else if (pgType === "text") row[name] = String(value);
    else row[name] = Number(value);
  }
  return row;
}
