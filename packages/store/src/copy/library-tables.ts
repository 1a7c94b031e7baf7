/**
 * A library as the rows that hold it, the same in every backend (see the migrations): what `db copy` moves. Columns
 * keep their stored text (times, JSON), so a copied version reads back, and exports, byte for byte as the original.
 */
export interface LibraryTables {
  domain: {
    domain: string;
    next_id: number;
    next_version: number;
    head_version: number | null;
    created_at: string;
  };
  versions: Array<{
    version: number;
    parent: number | null;
    state: string;
    ops: string;
    gate: string | null;
    run_id: string | null;
    message: string | null;
    entry_count: number;
    created_at: string;
    state_changed_at: string | null;
  }>;
  /** Entry contents; `row_id` is only a key within this copy (a target gives its own). */
  rows: Array<{
    row_id: number;
    ordinal: number;
    text: string;
    status: string;
    scope: string | null;
    conflict_group: string | null;
    provenance: string;
    history: string;
    created_at: string;
    updated_at: string;
  }>;
  /** Each version's references to its rows. */
  entries: Array<{ version: number; ordinal: number; row_id: number }>;
  stats: Array<{
    ordinal: number;
    shown: number;
    success: number;
    sum_delta: number;
    last_used_version: number | null;
    /** The controlled contrast (store migration 3) and the wording it was measured on. */
    contrast_n: number;
    contrast_sum: number;
    contrast_sum_squares: number;
    contrast_text: string | null;
  }>;
}

/** Reading and writing whole libraries as rows, on one backend. */
export interface LibraryTablesAccess {
  /** Where it is, for messages (no password). */
  readonly where: string;
  domains(): Promise<string[]>;
  read(domain: string): Promise<LibraryTables>;
  /** Writes a library that the target does not hold yet, in one transaction. */
  write(tables: LibraryTables): Promise<void>;
  close(): Promise<void>;
}

export const versionColumns = [
  "version",
  "parent",
  "state",
  "ops",
  "gate",
  "run_id",
  "message",
  "entry_count",
  "created_at",
  "state_changed_at",
] as const;
export const rowColumns = [
  "row_id",
  "ordinal",
  "text",
  "status",
  "scope",
  "conflict_group",
  "provenance",
  "history",
  "created_at",
  "updated_at",
] as const;
export const statsColumns = [
  "ordinal",
  "shown",
  "success",
  "sum_delta",
  "last_used_version",
  "contrast_n",
  "contrast_sum",
  "contrast_sum_squares",
  "contrast_text",
] as const;
