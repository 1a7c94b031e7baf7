import { checkDomain } from "../base-library-store.js";
import {
  contrastVersions,
  measuredText,
  parseStatsDeltas,
  unknownStatsIdsError,
  versionTextKey,
} from "../library/library-write-rules.js";
import { experienceId, experienceOrdinal } from "../library/plan-operations.js";
import type { StatsDelta } from "../library-store.js";
import type { SqlLibraryTables } from "./sql-library-tables.js";
import { statsTypes } from "./sql-library-tables.js";
import { all, runMany, type Sql } from "./sql-port.js";

interface EntrySum {
  shown: number;
  success: number;
  sumDelta: number;
  last: number | null;
  contrastN: number;
  contrastSum: number;
  contrastSumSquares: number;
  contrastText: string | null;
}

/**
 * Adds stats deltas inside the caller's write transaction (stats alone, or an outcome with the credit it gives).
 * Throws, leaving the transaction to roll back, on an invalid delta or an unknown id. One row per entry (deltas of
 * one id summed, the latest version kept), in ordinal order: two transactions adding to the same entries lock them
 * in the same order (no deadlock on PostgreSQL).
 */
export function* addStats(
  tables: SqlLibraryTables,
  domain: string,
  deltas: readonly StatsDelta[],
): Sql<number> {
  checkDomain(domain);
  const valid = parseStatsDeltas(domain, deltas);
  const ordinals = [...new Set(valid.map((d) => experienceOrdinal(d.id)))];
  const known = new Set(
    (yield* all<{ ordinal: number }>(
      `SELECT DISTINCT ordinal FROM experience_rows WHERE domain = ? AND ${tables.dialect.inList("ordinal", "int")}`,
      [domain, ordinals],
    )).map((r) => r.ordinal),
  );
  const unknown = ordinals.filter((o) => !known.has(o)).map(experienceId);
  if (unknown.length > 0) throw unknownStatsIdsError(domain, unknown);
  // The wording each contrast was measured on: the entry's text in the version its rollouts read.
  const texts = new Map<string, string>();
  for (const [version, wanted] of contrastVersions(valid))
    for (const [ordinal, text] of yield* tables.textsAt(domain, version, wanted))
      texts.set(versionTextKey(ordinal, version), text);
  const byOrdinal = new Map<number, EntrySum>();
  const byVersion = new Map<
    string,
    [ordinal: number, version: number, n: number, sum: number, squares: number]
  >();
  for (const delta of valid) {
    const ordinal = experienceOrdinal(delta.id);
    const sum = byOrdinal.get(ordinal) ?? {
      shown: 0,
      success: 0,
      sumDelta: 0,
      last: null,
      contrastN: 0,
      contrastSum: 0,
      contrastSumSquares: 0,
      contrastText: null,
    };
    sum.shown += delta.shown ?? 0;
    sum.success += delta.success ?? 0;
    sum.sumDelta += delta.sumDelta ?? 0;
    const text = measuredText(texts, delta);
    if (text !== null && sum.contrastText !== null && text !== sum.contrastText) {
      // Two wordings in one batch (a rewrite between the versions read): the later counters are the new wording's.
      sum.contrastN = 0;
      sum.contrastSum = 0;
      sum.contrastSumSquares = 0;
    }
    if (text !== null) sum.contrastText = text;
    sum.contrastN += delta.contrast?.n ?? 0;
    sum.contrastSum += delta.contrast?.sum ?? 0;
    sum.contrastSumSquares += delta.contrast?.sumSquares ?? 0;
    if (delta.contrast && delta.contrast.n > 0 && delta.lastUsedVersion != null) {
      const key = `${ordinal}/${delta.lastUsedVersion}`;
      const row = byVersion.get(key) ?? [ordinal, delta.lastUsedVersion, 0, 0, 0];
      row[2] += delta.contrast.n;
      row[3] += delta.contrast.sum;
      row[4] += delta.contrast.sumSquares;
      byVersion.set(key, row);
    }
    const last = delta.lastUsedVersion ?? null;
    if (last !== null) sum.last = sum.last === null ? last : Math.max(sum.last, last);
    byOrdinal.set(ordinal, sum);
  }
  const same = "s.contrast_text IS NOT DISTINCT FROM excluded.contrast_text";
  const counter = (column: string) =>
    `${column} = CASE WHEN excluded.contrast_n = 0 THEN s.${column}
       WHEN ${same} THEN s.${column} + excluded.${column} ELSE excluded.${column} END`;
  yield* runMany(
    `INSERT INTO experience_stats AS s (domain, ordinal, shown, success, sum_delta, last_used_version,
       contrast_n, contrast_sum, contrast_sum_squares, contrast_text)`,
    statsTypes,
    [...byOrdinal]
      .sort(([a], [b]) => a - b)
      .map(([ordinal, r]) => [
        domain,
        ordinal,
        r.shown,
        r.success,
        r.sumDelta,
        r.last,
        r.contrastN,
        r.contrastSum,
        r.contrastSumSquares,
        r.contrastN > 0 ? r.contrastText : null,
      ]),
    `ON CONFLICT (domain, ordinal) DO UPDATE SET
       shown = s.shown + excluded.shown,
       success = s.success + excluded.success,
       sum_delta = s.sum_delta + excluded.sum_delta,
       -- A contrast measured on another wording than the stored one starts the counters again.
       ${counter("contrast_n")},
       ${counter("contrast_sum")},
       ${counter("contrast_sum_squares")},
       contrast_text = CASE WHEN excluded.contrast_n = 0 THEN s.contrast_text ELSE excluded.contrast_text END,
       last_used_version = CASE
         WHEN excluded.last_used_version IS NULL THEN s.last_used_version
         WHEN s.last_used_version IS NULL THEN excluded.last_used_version
         ELSE ${tables.dialect.greatest("s.last_used_version", "excluded.last_used_version")} END`,
  );
  yield* runMany(
    "INSERT INTO experience_version_contrasts AS c (domain, ordinal, version, n, sum, sum_squares)",
    ["text", "int", "int", "int", "float8", "float8"],
    [...byVersion.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((row) => [domain, ...row]),
    `ON CONFLICT (domain, ordinal, version) DO UPDATE SET
       n = c.n + excluded.n, sum = c.sum + excluded.sum, sum_squares = c.sum_squares + excluded.sum_squares`,
  );
  return ordinals.length;
}
