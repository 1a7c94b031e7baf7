import {
  type ExperienceLine,
  type LibrarySnapshot,
  type LibraryVersionRef,
  TfgrpoError,
  type Trajectory,
} from "@tfgrpo/protocol";

/**
 * How the critic reads what a request names by id: the group's trajectories and the library it ran under. The
 * composition root implements it (over the Bus's served reads, `tfgrpo.trajectory.get` and `tfgrpo.library.get`), so
 * this package knows no transport and a test can hand it a map.
 */
export interface CriticReader {
  /** The stored trajectories among `ids`, in any order; an id not stored is left out. */
  getTrajectories(ids: readonly string[]): Promise<Trajectory[]>;
  /** One immutable library version; null when it does not exist. */
  getLibrary(ref: LibraryVersionRef): Promise<LibrarySnapshot | null>;
}

/** A group's trajectories in the order of `ids`; every one must be stored (a missing one is `not_found`). */
export async function readTrajectories(
  reader: CriticReader,
  groupId: string,
  ids: readonly string[],
): Promise<Trajectory[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await reader.getTrajectories(ids)).map((trajectory) => [trajectory.id, trajectory]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new TfgrpoError(
      "not_found",
      `group ${groupId}: trajectories not found: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`,
      { details: { groupId, missing } },
    );
  }
  return ids.map((id) => byId.get(id)!);
}

/** The entries the critic may edit, as it shows them: every entry of the version that is not archived. */
export async function readExperienceLines(
  reader: CriticReader,
  ref: LibraryVersionRef | null,
): Promise<ExperienceLine[]> {
  if (ref === null) return [];
  const snapshot = await reader.getLibrary(ref);
  if (!snapshot) {
    throw new TfgrpoError("not_found", `library ${ref.domain}@v${ref.version} not found`, {
      details: { domain: ref.domain, version: ref.version },
    });
  }
  return snapshot.experiences
    .filter((entry) => entry.status !== "archived")
    .map((entry) => ({ id: entry.id, text: entry.text }));
}
