import {
  defaultRelevantRatio,
  defaultRelevantShare,
  type Exposure,
  isShownToAttempt,
  minRelevantEntries,
  variationOf,
} from "@tfgrpo/protocol";
import type { ExperienceSelection } from "./experience-index.js";

export interface ExposedSelection {
  selection: ExperienceSelection;
  /** Entries the group varies that this attempt does not see (its withheld arm), sorted like `shown`. */
  withheld: string[];
  /**
   * Each varied entry's similarity to the task (both arms: the group's selection, before any outcome), so credit can
   * weigh a contrast by where the entry applies (`groupContrasts`). Empty without a similarity signal.
   */
  variedSimilarity: Record<string, number>;
}

/**
 * One attempt's share of a group's varied exposure. The selection is the group's (it depends on the task and the
 * library only). Each entry whose decision is open (`variationOf`: few contrasts, or a confidence sequence straddling
 * a lifecycle threshold) is varied in every group it is selected in; a settled entry drawn into the group's exposure
 * budget only where it is relevant (its similarity at least `relevantRatio` of the task's most similar entry's, and
 * among the most similar `relevantShare` of the shown entries). Where an open entry's evidence counts is decided by
 * credit (`groupContrasts`: its similarity to this task against its best over the batch), from the similarities each
 * attempt records: one task's selection cannot tell a lesson that applies a little from one that does not apply (a
 * conversation task whose text is the same for every customer ranks the same one or two lessons first everywhere, and
 * a relative cut-off then hid the others from every group). A varied entry is kept for the attempts of its shown arm
 * and removed for the others. The "most useful" repetition never carries a varied entry, in either arm, so the two
 * arms' prompts differ only in the varied lines: nothing else in the prompt moves, and the contrast measures the
 * entry, not its placement.
 */
export function applyExposure(
  selection: ExperienceSelection,
  exposure: Exposure | undefined,
  attempt: number,
): ExposedSelection {
  if (!exposure || selection.shown.length === 0) return { selection, withheld: [], variedSimilarity: {} };
  const signal = hasSimilaritySignal(selection);
  let relevant: Set<string> | undefined;
  const varied = new Set<string>();
  for (const entry of selection.shown) {
    const variation = variationOf(exposure, entry.id, entry.status, entry.contrast);
    if (variation === "budget")
      relevant ??= relevantForBudget(
        selection,
        signal,
        exposure.relevantRatio ?? defaultRelevantRatio,
        exposure.relevantShare ?? defaultRelevantShare,
      );
    if (variation === "open" || (variation === "budget" && relevant!.has(entry.id))) varied.add(entry.id);
  }
  if (varied.size === 0) return { selection, withheld: [], variedSimilarity: {} };
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
    variedSimilarity: signal
      ? Object.fromEntries(
          selection.shown
            .filter((entry) => varied.has(entry.id))
            .map((entry) => [entry.id, Math.round(entry.similarity * 1e4) / 1e4]),
        )
      : {},
  };
}

/** Whether the selection's similarities say anything (without embeddings every one is equal). */
function hasSimilaritySignal(selection: ExperienceSelection): boolean {
  const entries = selection.shown;
  return !entries.every((entry) => entry.similarity === entries[0]!.similarity);
}

/**
 * The entries a settled entry of the budget may be varied on: the most similar `share` of the selection (at least
 * `minRelevantEntries`) whose similarity is also at least `ratio` of the most similar one's (always the most similar).
 * Without a similarity signal (no embeddings: every similarity equal) every entry is.
 */
function relevantForBudget(
  selection: ExperienceSelection,
  signal: boolean,
  ratio: number,
  share: number,
): Set<string> {
  const entries = selection.shown;
  if (!signal) return new Set(entries.map((entry) => entry.id));
  const ranked = [...entries].sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id));
  const top = ranked[0]!.similarity;
  const count = Math.max(minRelevantEntries, Math.ceil(share * entries.length));
  return new Set(
    ranked
      .slice(0, count)
      .filter((entry, index) => index === 0 || (top > 0 && entry.similarity >= ratio * top))
      .map((entry) => entry.id),
  );
}
