import type { Experience, LibrarySnapshot } from "@tfgrpo/protocol";
import type { ExperienceChange, ExperienceField, LibraryDiff } from "../library-store.js";
import { experienceOrdinal } from "./plan-operations.js";

const fields: readonly ExperienceField[] = ["text", "status", "scope", "conflictGroup"];

/** Per-id differences between two versions of one library (null stands for the empty library). */
export function diffSnapshots(
  domain: string,
  from: LibrarySnapshot | null,
  to: LibrarySnapshot | null,
): LibraryDiff {
  const before = new Map((from?.experiences ?? []).map((e) => [e.id, e]));
  const after = new Map((to?.experiences ?? []).map((e) => [e.id, e]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort(
    (a, b) => experienceOrdinal(a) - experienceOrdinal(b),
  );
  const diff: LibraryDiff = {
    domain,
    from: from?.version ?? null,
    to: to?.version ?? null,
    added: [],
    removed: [],
    changed: [],
  };
  for (const id of ids) {
    const a = before.get(id) ?? null;
    const b = after.get(id) ?? null;
    const change: ExperienceChange = { id, before: a, after: b, fields: a && b ? changedFields(a, b) : [] };
    if (!a) diff.added.push(change);
    else if (a.status !== "archived" && (!b || b.status === "archived")) diff.removed.push(change);
    else if (b && change.fields.length > 0) diff.changed.push(change);
  }
  return diff;
}

function changedFields(a: Experience, b: Experience): ExperienceField[] {
  return fields.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
}
