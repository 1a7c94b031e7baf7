import type {
  Experience,
  ExperienceContrast,
  ExperienceStatus,
  GateDecision,
  LibrarySnapshot,
  LibraryVersion,
  Operation,
} from "@tfgrpo/protocol";

/**
 * Test-only hooks that throw at a chosen point of a write, to prove the write is one transaction.
 * Production code never passes them.
 */
export interface StoreFaults {
  /** Called after a new version's entry rows are written, before the version is finished (counters, head). */
  afterRows?: () => void;
}

export interface ApplyOptions {
  /** The version the operations apply to; null for the empty library. Must exist. */
  parent: number | null;
  /** "committed" also moves the head (optimistic: the parent must be the current head unless `force`). */
  state: "proposed" | "committed";
  runId?: string | null;
  message?: string;
  /** Commit even though the parent is no longer the head (last writer wins). */
  force?: boolean;
  gate?: GateDecision;
  now?: Date;
  faults?: StoreFaults;
}

export interface ApplyResult {
  version: LibraryVersion;
  /** Ids the set created (add and merge), in operation order. */
  createdIds: string[];
  /** Which operation created which id: add and merge operations only. */
  created: Array<{ index: number; id: string }>;
}

export interface SetVersionStateOptions {
  /** Commit even though the version's parent is not the current head. */
  force?: boolean;
  now?: Date;
}

export interface RollbackOptions {
  /**
   * The head the caller saw (null: the empty library). When given and the head has moved since, the rollback is
   * refused with `conflict` and nothing is written (optimistic concurrency, as for a commit).
   */
  expectedHead?: number | null;
  runId?: string | null;
  message?: string;
  now?: Date;
  faults?: StoreFaults;
  /**
   * Exact restore: the new version equals the file (ids, texts, statuses, conflict groups, stats and history from
   * the file) instead of adding to the head. Head entries the file does not hold are left out of the new version
   * (older versions keep them). The file's ids are kept; an id the domain handed out before for an entry that is not
   * in the head is refused (ids are never reused). Into a fresh domain, the file's version number is kept.
   */
  replace?: boolean;
}

export type ExperienceField = "text" | "status" | "scope" | "conflictGroup";

export interface ExperienceChange {
  id: string;
  before: Experience | null;
  after: Experience | null;
  /** The versioned fields that differ (empty for a plain add). */
  fields: ExperienceField[];
}

export interface LibraryDiff {
  domain: string;
  /** null stands for the empty library. */
  from: number | null;
  to: number | null;
  /** In `to` but not in `from`. */
  added: ExperienceChange[];
  /** Visible (not archived) in `from`, archived or absent in `to`. */
  removed: ExperienceChange[];
  /** In both, with a different text, status, scope or conflict group (and not counted as removed). */
  changed: ExperienceChange[];
}

export interface DomainSummary {
  domain: string;
  /** Latest committed version, null before the first commit. */
  head: number | null;
  latestVersion: number | null;
  versions: number;
  /** The next id number the domain will hand out (ids below it are taken for ever). */
  nextId: number;
  /** Entries of the head by status. */
  headCounts: Record<ExperienceStatus, number>;
}

export interface StatsDelta {
  id: string;
  /** Added to the current value. */
  shown?: number;
  success?: number;
  sumDelta?: number;
  /** Kept as the maximum of the stored and the given value. */
  lastUsedVersion?: number | null;
  /** Contrast counters added to the entry's and, when `lastUsedVersion` is set, to that version's. */
  contrast?: ExperienceContrast;
}

export interface VersionContrast {
  version: number;
  contrast: ExperienceContrast;
}

export type LibraryFormat = "json" | "plain" | "markdown";

export interface ExportOptions {
  format: LibraryFormat;
  /** Defaults to the head. */
  version?: number;
}

export interface ImportOptions {
  /** The file's content. */
  text: string;
  /** Shown in error messages (the file the text came from). */
  file?: string;
  /** Defaults to detection from the file name and the content. */
  format?: LibraryFormat | "auto";
  /** Status of entries whose file does not say (plain JSON, Markdown without metadata). Default "active". */
  defaultStatus?: ExperienceStatus;
  runId?: string | null;
  message?: string;
  now?: Date;
  faults?: StoreFaults;
  /**
   * Exact restore: the new version equals the file (ids, texts, statuses, conflict groups, stats and history from
   * the file) instead of adding to the head. Head entries the file does not hold are left out of the new version
   * (older versions keep them). The file's ids are kept; an id the domain handed out before for an entry that is not
   * in the head is refused (ids are never reused). Into a fresh domain, the file's version number is kept.
   */
  replace?: boolean;
}

export interface ImportResult {
  version: LibraryVersion;
  format: LibraryFormat;
  /** Id in the file -> id in the store (identical when ids were preserved). */
  ids: Record<string, string>;
  /** True when the domain had never handed out an id, so the file's ids were kept. */
  preservedIds: boolean;
  entries: number;
}

/**
 * The experience libraries: per-domain, immutable versions; ids `G0, G1, ...` come from a per-domain counter and are
 * never reused; the head is the version committed last. Entry stats (shown, success, ...) are not versioned: every
 * snapshot shows the current stats. Only the curator writes; actors and reports read.
 */
export interface LibraryStore {
  applyOperations(domain: string, ops: readonly Operation[], options: ApplyOptions): Promise<ApplyResult>;
  setVersionState(
    domain: string,
    version: number,
    state: "committed" | "rejected",
    gate?: GateDecision,
    options?: SetVersionStateOptions,
  ): Promise<LibraryVersion>;
  getHead(domain: string): Promise<LibrarySnapshot | null>;
  getHeadVersion(domain: string): Promise<number | null>;
  /** The full entry set of a version, archived entries included (callers filter), with current stats. */
  getVersion(domain: string, version: number): Promise<LibrarySnapshot | null>;
  getVersionInfo(domain: string, version: number): Promise<LibraryVersion | null>;
  listVersions(domain: string): Promise<LibraryVersion[]>;
  listDomains(): Promise<DomainSummary[]>;
  diff(domain: string, from: number | null, to: number | null): Promise<LibraryDiff>;
  /** Commits a new version (parent = the head) whose entries equal those of `toVersion`. */
  rollback(domain: string, toVersion: number, options?: RollbackOptions): Promise<LibraryVersion>;
  /** Adds the deltas in one transaction; an unknown id refuses them all. Returns the number of entries updated. */
  updateStats(domain: string, deltas: readonly StatsDelta[]): Promise<number>;
  /** An entry's contrast counters split by the library version its rollouts read, oldest version first. */
  listVersionContrasts(domain: string, id: string): Promise<VersionContrast[]>;
  exportLibrary(domain: string, options: ExportOptions): Promise<string>;
  importLibrary(domain: string, options: ImportOptions): Promise<ImportResult>;
}
