import path from "node:path";
import type { Experience, Operation } from "@tfgrpo/protocol";
import { toImportedExperience } from "../formats/imported-experience.js";
import type { ParsedLibraryFile } from "../formats/library-file.js";
import type { ImportOptions } from "../library-store.js";
import { refuseReusedIds } from "./library-write-rules.js";
import { experienceId, experienceOrdinal } from "./plan-operations.js";

export interface ImportPlan {
  version: number;
  experiences: Experience[];
  ops: Operation[];
  ids: Record<string, string>;
  preservedIds: boolean;
  nextOrdinal: number;
  message: string;
  entryCount: number;
  /** Whether an entry's stats are written (a restore writes them all, an import only recorded ones). */
  writesStats: (experience: Experience) => boolean;
}

/**
 * What an import writes, decided from the domain's counters and (for `--replace`) the head's ids: pure, so every
 * backend imports the same way. Throws (before anything is written) when a restore would reuse an id.
 */
export function planImport(input: {
  domain: string;
  parsed: ParsedLibraryFile;
  options: ImportOptions & { file: string };
  current: { nextId: number; nextVersion: number; head: number | null };
  parentEntryCount: number;
  headIds: ReadonlySet<string>;
  now: string;
}): ImportPlan {
  const { domain, parsed, options, current, headIds, now } = input;
  const runId = options.runId ?? null;
  const replace = options.replace === true;
  if (replace) refuseReusedIds(domain, parsed, current.nextId, headIds, options.file);
  // Keeping the file's ids is only safe where no id was ever handed out (ids are never reused), or on an exact
  // restore whose reused ids are all the head's own entries.
  const preservedIds = replace || current.nextId === 0;
  // A restore into a fresh domain keeps the version number the file was exported from.
  const fileVersion = replace && current.head === null ? (parsed.version ?? null) : null;
  const version =
    fileVersion !== null && fileVersion > current.nextVersion ? fileVersion : current.nextVersion;
  let nextOrdinal = current.nextId;
  const ids: Record<string, string> = {};
  const experiences = parsed.entries.map((entry) => {
    const id = preservedIds ? entry.id : experienceId(nextOrdinal++);
    ids[entry.id] = id;
    return toImportedExperience(entry, {
      domain,
      id,
      version,
      runId,
      now,
      file: options.file,
      defaultStatus: options.defaultStatus ?? "active",
    });
  });
  if (preservedIds) {
    nextOrdinal = experiences.reduce(
      (max, e) => Math.max(max, experienceOrdinal(e.id) + 1),
      replace ? current.nextId : 0,
    );
  }
  const source = path.basename(options.file);
  const ops: Operation[] = parsed.entries.map((entry, index): Operation => {
    const e = experiences[index]!;
    if (replace && headIds.has(e.id))
      return { op: "modify", id: e.id, text: e.text, reason: `restored from ${source} (${entry.id})` };
    return {
      op: "add",
      text: e.text,
      status: e.status,
      ...(e.scope ? { scope: e.scope } : {}),
      ...(e.conflictGroup !== undefined ? { conflictGroup: e.conflictGroup } : {}),
      reason: `${replace ? "restored" : "imported"} from ${source} (${entry.id})`,
    };
  });
  if (replace) {
    const kept = new Set(experiences.map((e) => e.id));
    for (const id of headIds)
      if (!kept.has(id))
        ops.push({ op: "delete", id, reason: `not in ${source}: left out of the restored version` });
  }
  const message =
    options.message ??
    (replace
      ? `restore of ${source}: a version equal to the file (${experiences.length} entries)`
      : `import of ${source}: ${experiences.length} entries${preservedIds ? " (ids kept)" : " (new ids)"}`);
  return {
    version,
    experiences,
    ops,
    ids,
    preservedIds,
    nextOrdinal,
    message,
    entryCount: replace ? experiences.length : input.parentEntryCount + experiences.length,
    writesStats: (experience) => {
      const s = experience.stats;
      return replace || s.shown !== 0 || s.success !== 0 || s.sumDelta !== 0 || s.lastUsedVersion !== null;
    },
  };
}
