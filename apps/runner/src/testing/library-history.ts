import type { LibraryStore } from "@tfgrpo/store";

/**
 * What must be equal between two runs of the same seed (an uninterrupted one and one stopped and resumed): every
 * version's lineage, state, operations and gate decision, and the head's entries.
 */
export async function libraryHistory(store: LibraryStore, domain: string) {
  const versions = await store.listVersions(domain);
  const head = await store.getHead(domain);
  return {
    versions: versions.map((v) => ({
      version: v.version,
      parent: v.parent,
      state: v.state,
      ops: v.ops,
      decision: v.gate?.decision,
    })),
    head:
      head?.experiences.map((e) => ({
        id: e.id,
        text: e.text,
        status: e.status,
        conflictGroup: e.conflictGroup,
      })) ?? null,
  };
}
