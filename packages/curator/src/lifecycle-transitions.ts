import { type ExperienceStatus, TfgrpoError } from "@tfgrpo/protocol";

/**
 * The experience lifecycle (seed 002, section 3.3): candidate (new, unproven) -> active (shown to actors) ->
 * probation (slipping, or pushed out by the budget) -> archived (kept with its history, never shown).
 * Probation is reversible; archiving is final for the automatic policy, and only an explicit restore brings an entry
 * back, as a candidate that must earn its place again.
 */
export const lifecycleTransitions: Readonly<Record<ExperienceStatus, readonly ExperienceStatus[]>> = {
  candidate: ["active", "archived"],
  active: ["probation", "archived"],
  probation: ["active", "archived"],
  archived: ["candidate"],
};

export function canTransition(from: ExperienceStatus, to: ExperienceStatus): boolean {
  return lifecycleTransitions[from].includes(to);
}

export function assertTransition(id: string, from: ExperienceStatus, to: ExperienceStatus): void {
  if (!canTransition(from, to)) {
    throw new TfgrpoError(
      "invalid_operations",
      `experience ${id}: lifecycle transition ${from} -> ${to} is not allowed (from ${from}: ${lifecycleTransitions[from].join(", ")})`,
      { details: { id, from, to } },
    );
  }
}
