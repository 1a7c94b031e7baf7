import type { Experience } from "@tfgrpo/protocol";
import { readStoredJson } from "../sql/stored-json.js";
import { experienceId } from "./plan-operations.js";

/**
 * An entry of a version with its current stats, as every backend reads it: a row as an array (several times faster
 * than objects on 10k rows), in the columns of `entryColumns` of the backend's tables.
 */
export type EntryRow = [
  rowId: number | string,
  ordinal: number,
  text: string,
  status: Experience["status"],
  scope: string | null,
  conflictGroup: string | null,
  provenance: string,
  history: string,
  createdAt: string,
  updatedAt: string,
  shown: number | null,
  success: number | null,
  sumDelta: number | null,
  lastUsedVersion: number | null,
  contrastN: number | null,
  contrastSum: number | null,
  contrastSumSquares: number | null,
];

/** A stored entry row as an experience; damaged JSON names the row and the field. */
export function toExperience(domain: string, row: EntryRow): Experience {
  const [rowId, ordinal, text, status, scope, conflictGroup, provenance, history, createdAt, updatedAt] = row;
  const where = `experience_rows row ${rowId}`;
  return {
    id: experienceId(ordinal),
    domain,
    text,
    status,
    ...(scope !== null ? { scope: readStoredJson<Experience["scope"]>(scope, `${where} scope`) } : {}),
    ...(conflictGroup !== null ? { conflictGroup } : {}),
    stats: {
      shown: row[10] ?? 0,
      success: row[11] ?? 0,
      sumDelta: row[12] ?? 0,
      lastUsedVersion: row[13],
      ...(row[14] ? { contrast: { n: row[14], sum: row[15] ?? 0, sumSquares: row[16] ?? 0 } } : {}),
    },
    provenance: readStoredJson(provenance, `${where} provenance`),
    history: readStoredJson(history, `${where} history`),
    createdAt,
    updatedAt,
  };
}
