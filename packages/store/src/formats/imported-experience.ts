import path from "node:path";
import { type Experience, type ExperienceStatus, emptyExperienceStats } from "@tfgrpo/protocol";
import { canonicalExperience } from "../library/canonical-experience.js";
import type { LibraryFileEntry } from "./library-file.js";

export interface ImportedExperienceContext {
  domain: string;
  /** The id the entry gets in the store (the file's id, or a fresh one). */
  id: string;
  version: number;
  runId: string | null;
  now: string;
  file: string;
  defaultStatus: ExperienceStatus;
}

/** A file entry as a stored experience: what the file says is kept as is, what it does not say gets defaults. */
export function toImportedExperience(
  entry: LibraryFileEntry,
  context: ImportedExperienceContext,
): Experience {
  const { fields } = entry;
  const status = fields.status ?? context.defaultStatus;
  // The base name only: where a file sat on one machine says nothing useful in the entry's history.
  const reason = `imported from ${path.basename(context.file)} (${entry.id})`;
  return canonicalExperience({
    id: context.id,
    domain: context.domain,
    text: entry.text,
    status,
    ...(fields.scope !== undefined ? { scope: fields.scope } : {}),
    ...(fields.conflictGroup !== undefined ? { conflictGroup: fields.conflictGroup } : {}),
    stats: fields.stats ?? emptyExperienceStats(),
    provenance: fields.provenance ?? { runId: context.runId, version: context.version, fromOps: [reason] },
    history: fields.history ?? [
      { at: context.now, version: context.version, from: null, to: status, reason },
    ],
    createdAt: fields.createdAt ?? context.now,
    updatedAt: fields.updatedAt ?? context.now,
  });
}
