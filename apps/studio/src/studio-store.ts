import type { LibraryStore, RunStore } from "@tfgrpo/store";

/** What the studio reads and (through the curator) writes: libraries and runs of one workspace database. */
export type StudioStore = LibraryStore & RunStore;
