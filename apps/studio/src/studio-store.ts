import type { LearnerStore, LibraryStore, OutcomeStore, RunStore } from "@tfgrpo/store";

/**
 * What the studio reads and (through the curator) writes: libraries and runs of one workspace database, and the
 * online learner's state (with the outcome counts its status shows).
 */
export type StudioStore = LibraryStore &
  RunStore &
  LearnerStore &
  Pick<OutcomeStore, "countOutcomes" | "listOutcomes">;
