import {
  defaultRelevantShare,
  type Exposure,
  isShownToAttempt,
  isVaried,
  minRelevantEntries,
} from "@tfgrpo/protocol";
import type { ExperienceSelection } from "./experience-index.js";

export interface ExposedSelection {
  selection: ExperienceSelection;
  /** Entries the group varies that this attempt does not see (its withheld arm), sorted like `shown`. */
  withheld: string[];
}

/**
 * One attempt's share of a group's varied exposure. The selection is the group's (it depends on the task and the
 * library only). Each entry the exposure varies and that is relevant to the task (`relevantIds`) is kept for the
 * attempts of its shown arm and removed for the others; an uncertain entry (candidate, probation) that is not relevant
 * is removed for every attempt (unproven, it takes no room where it does not apply), and an active one stays.
 * The "most useful" repetition never carries a varied entry, in either arm, so the two arms' prompts differ only in
 * the varied lines: nothing else in the prompt moves, and the contrast measures the entry, not its placement.
 */
export function applyExposure(
  selection: ExperienceSelection,
  exposure: Exposure | undefined,
  attempt: number,
): ExposedSelection {
  if (!exposure || selection.shown.length === 0) return { selection, withheld: [] };
  const relevant = relevantIds(selection, exposure.relevantShare ?? defaultRelevantShare);
  const varied = new Set<string>();
  const hidden = new Set<string>();
  for (const entry of selection.shown) {
    if (!isVaried(exposure, entry.id, entry.status, entry.contrasts)) continue;
    if (relevant.has(entry.id)) varied.add(entry.id);
    else if (entry.status !== "active") hidden.add(entry.id);
  }
  if (varied.size === 0 && hidden.size === 0) return { selection, withheld: [] };
  const withheld = new Set([...varied].filter((id) => !isShownToAttempt(exposure, id, attempt)));
  const removed = (id: string) => withheld.has(id) || hidden.has(id);
  const inMostUseful = (id: string) => varied.has(id) || hidden.has(id);
  const shown = selection.shown.filter((entry) => !removed(entry.id));
  const mostUseful = selection.mostUseful.filter((entry) => !inMostUseful(entry.id));
  const removedTokens =
    selection.shown.filter((entry) => removed(entry.id)).reduce((sum, entry) => sum + entry.tokens, 0) +
    selection.mostUseful
      .filter((entry) => inMostUseful(entry.id))
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

/**
 * The entries relevant to the task: the most similar `share` of the selection (at least `minRelevantEntries`).
 * Without a similarity signal (no embeddings: every similarity 0) every entry is.
 */
function relevantIds(selection: ExperienceSelection, share: number): Set<string> {
  const entries = selection.shown;
  if (entries.every((entry) => entry.similarity === entries[0]!.similarity)) {
    return new Set(entries.map((entry) => entry.id));
  }
  const count = Math.max(minRelevantEntries, Math.ceil(share * entries.length));
  const ranked = [...entries].sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id));
  return new Set(ranked.slice(0, count).map((entry) => entry.id));
}
