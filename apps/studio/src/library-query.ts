import {
  type ContrastInterval,
  type Experience,
  type ExperienceStatus,
  entryContrast,
  estimateTokens,
  experienceStatusSchema,
  observedUtility,
  successRate,
} from "@tfgrpo/protocol";

export const sortKeys = [
  "id",
  "text",
  "status",
  "group",
  "shown",
  "success",
  "contrast",
  "utility",
  "tokens",
] as const;
export type SortKey = (typeof sortKeys)[number];

export interface LibraryQuery {
  /** Words that must all appear in the id, text or conflict group (any case). */
  q: string;
  /** "live" hides archived entries; "all" shows every entry. */
  status: ExperienceStatus | "live" | "all";
  sort: SortKey;
  dir: "asc" | "desc";
}

export interface EntryRow {
  entry: Experience;
  successRate: number;
  /** The entry's credit: mean reward shown minus withheld, with its interval (n = 0: no contrast yet). */
  contrast: ContrastInterval;
  utility: number;
  /** What the entry costs in every prompt that shows it (estimated tokens). */
  tokens: number;
}

/** Reads a query from URL parameters; anything unknown falls back to the default (live entries by id). */
export function parseLibraryQuery(params: Record<string, string | undefined>): LibraryQuery {
  const status = params.status;
  const sort = params.sort;
  return {
    q: (params.q ?? "").slice(0, 200),
    status:
      status === "all" || status === "live" || experienceStatusSchema.safeParse(status).success
        ? (status as LibraryQuery["status"])
        : "live",
    sort: sortKeys.includes(sort as SortKey) ? (sort as SortKey) : "id",
    dir: params.dir === "desc" ? "desc" : "asc",
  };
}

const statusRank: Record<ExperienceStatus, number> = { active: 0, candidate: 1, probation: 2, archived: 3 };

/** The rows of a library table: filtered by status and search words, then sorted (ties by id). */
export function selectEntries(entries: readonly Experience[], query: LibraryQuery): EntryRow[] {
  const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: EntryRow[] = [];
  for (const entry of entries) {
    if (
      query.status === "live"
        ? entry.status === "archived"
        : query.status !== "all" && entry.status !== query.status
    )
      continue;
    if (words.length > 0) {
      const haystack = `${entry.id} ${entry.text} ${entry.conflictGroup ?? ""}`.toLowerCase();
      if (!words.every((word) => haystack.includes(word))) continue;
    }
    rows.push({
      entry,
      successRate: successRate(entry.stats),
      contrast: entryContrast(entry.stats),
      utility: observedUtility(entry.stats, "ucb"),
      tokens: estimateTokens(entry.text),
    });
  }
  const ordinal = (row: EntryRow) => Number(row.entry.id.slice(1));
  const key: Record<SortKey, (row: EntryRow) => number | string> = {
    id: ordinal,
    text: (row) => row.entry.text.toLowerCase(),
    status: (row) => statusRank[row.entry.status],
    group: (row) => row.entry.conflictGroup ?? "\uffff",
    shown: (row) => row.entry.stats.shown,
    success: (row) => row.successRate,
    // By the estimate; entries without a contrast sort as 0, with what has no measurable effect.
    contrast: (row) => row.contrast.estimate,
    utility: (row) => row.utility,
    tokens: (row) => row.tokens,
  };
  const pick = key[query.sort];
  const sign = query.dir === "desc" ? -1 : 1;
  const keyed = rows.map((row) => ({ row, key: pick(row), id: ordinal(row) }));
  keyed.sort((x, y) => {
    if (x.key !== y.key) return (x.key < y.key ? -1 : 1) * sign;
    return x.id - y.id;
  });
  return keyed.map((item) => item.row);
}
