import { type Exposure, isShownToAttempt, isVaried } from "@tfgrpo/protocol";
import type { ExperienceSelection } from "./experience-index.js";

export interface ExposedSelection {
  selection: ExperienceSelection;
  /** Entries the group varies that this attempt does not see (its withheld arm), sorted like `shown`. */
  withheld: string[];
}

/**
 * One attempt's share of a group's varied exposure. The selection is the group's (it depends on the task and the
 * library only); each entry the exposure varies is kept for the attempts of its shown arm and removed for the others.
 * The "most useful" repetition never carries a varied entry, in either arm, so the two arms' prompts differ only in
 * the varied lines: nothing else in the prompt moves, and the contrast measures the entry, not its placement.
 */
export function applyExposure(
  selection: ExperienceSelection,
  exposure: Exposure | undefined,
  attempt: number,
): ExposedSelection {
  if (!exposure || selection.shown.length === 0) return { selection, withheld: [] };
  const varied = new Set(
    selection.shown.filter((entry) => isVaried(exposure, entry.id, entry.status)).map((entry) => entry.id),
  );
  if (varied.size === 0) return { selection, withheld: [] };
  const withheld = new Set([...varied].filter((id) => !isShownToAttempt(exposure, id, attempt)));
  const shown = selection.shown.filter((entry) => !withheld.has(entry.id));
  const mostUseful = selection.mostUseful.filter((entry) => !varied.has(entry.id));
  const removedTokens =
    selection.shown.filter((entry) => withheld.has(entry.id)).reduce((sum, entry) => sum + entry.tokens, 0) +
    selection.mostUseful
      .filter((entry) => varied.has(entry.id))
      .reduce((sum, entry) => sum + entry.tokens, 0);
  return {
    selection: {
      ...selection,
      shown,
      // A most-useful block emptied of its varied entries loses its heading too; its overhead is small and left in.
      mostUseful,
      tokens: Math.max(0, selection.tokens - removedTokens),
    },
    withheld: selection.shown.filter((entry) => withheld.has(entry.id)).map((entry) => entry.id),
  };
}
