import { type Experience, estimateTokens } from "@tfgrpo/protocol";
import { z } from "zod";
import { type Chunk, chunkByPromptSize } from "./chunk-by-prompt-size.js";
import type { Suggestion } from "./consolidation-prepass.js";
import {
  consolidationAnswerSchema,
  consolidationOverhead,
  experienceLine,
  suggestionLine,
} from "./consolidation-prompt.js";
import { compareExperienceIds } from "./credit-deltas.js";
import { groupBySimilarity } from "./group-by-similarity.js";
import { createSimilarityIndex } from "./similarity-index.js";
import { splitBySimilarity } from "./split-by-similarity.js";

export interface PlanConsolidationChunksInput {
  domain: string;
  /** Live entries of the base library. */
  live: readonly Experience[];
  suggestions: readonly Suggestion[];
  /** Embeddings by text, covering the live entries and the suggestions. */
  vectors: ReadonlyMap<string, ArrayLike<number>>;
  wordLimit: number;
  maxPromptTokens: number;
  contextNeighbours: number;
  indexSeed: number;
  /** Suggestions at least this similar (cosine, see groupBySimilarity) are grouped into one prompt. */
  groupSimilarity: number;
}

/**
 * The consolidation prompts of a batch: the whole library and batch in one prompt when they fit the budget, else
 * chunks of suggestions grouped by meaning (their embeddings, so paraphrases that arrived far apart meet in one
 * prompt; a group is split only when it alone exceeds a prompt), each with the entries its suggestions name plus their
 * nearest neighbours, as many as fit.
 */
export function planConsolidationChunks(input: PlanConsolidationChunksInput): Chunk<Suggestion>[] {
  const { live } = input;
  const liveText = new Map(live.map((entry) => [entry.id, entry.text]));
  const lineTokens = new Map(
    live.map((entry) => [entry.id, estimateTokens(`${experienceLine(entry.id, entry.text)}\n`)]),
  );
  // The schema travels in the system message when the provider has no json_schema mode: budget for it.
  const overhead =
    estimateTokens(consolidationOverhead(input.domain, input.wordLimit)) +
    estimateTokens(JSON.stringify(z.toJSONSchema(consolidationAnswerSchema))) +
    64;
  const needsContext = input.contextNeighbours > 0 && live.length > 0;
  const index = needsContext
    ? createSimilarityIndex(
        live.map((entry) => input.vectors.get(entry.text)!),
        { seed: input.indexSeed },
      )
    : null;
  const context = new Map<string, { required: string[]; optional: string[] }>();
  for (const suggestion of input.suggestions) {
    const required = suggestion.targetId ? [suggestion.targetId] : [];
    const vector = suggestion.text !== undefined ? input.vectors.get(suggestion.text) : undefined;
    const optional =
      index && vector
        ? index.neighbours(vector, { k: input.contextNeighbours }).map((hit) => live[hit.index]!.id)
        : [];
    context.set(suggestion.tempId, { required, optional });
  }
  // Suggestions grouped by meaning, not by arrival: paraphrases of one idea meet in one prompt. A delete is placed by
  // the text of the entry it removes; suggestions on one library entry are always in one group.
  const textOf = (suggestion: Suggestion) =>
    suggestion.text ?? (suggestion.targetId ? liveText.get(suggestion.targetId) : undefined);
  const placed = input.suggestions.filter((suggestion) => {
    const text = textOf(suggestion);
    return text !== undefined && input.vectors.has(text);
  });
  const itemTokens = (suggestion: Suggestion) =>
    estimateTokens(`${suggestionLine(suggestion, input.wordLimit)},\n`);
  const budgetOf = (suggestion: Suggestion) => {
    const { required, optional } = context.get(suggestion.tempId)!;
    return (
      itemTokens(suggestion) +
      [...required, ...optional.slice(0, 1)].reduce((sum, id) => sum + (lineTokens.get(id) ?? 0), 0)
    );
  };
  const { groups, index: meaning } = groupBySimilarity(
    placed.map((suggestion) => input.vectors.get(textOf(suggestion)!)!),
    {
      threshold: input.groupSimilarity,
      keyOf: (at) => placed[at]!.targetId,
      seed: input.indexSeed,
    },
  );
  // A group larger than one prompt is split with its most similar members together.
  const pieces = groups.flatMap((group) =>
    splitBySimilarity(group, {
      similarity: (a, b) => meaning.similarity(a, b),
      cost: (at) => budgetOf(placed[at]!),
      capacity: input.maxPromptTokens - overhead,
    }).map((piece) => piece.map((at) => placed[at]!)),
  );
  // Deterministic order: groups by the library entry they touch (related groups side by side), then by the first
  // suggestion's position in the batch.
  const position = (suggestion: Suggestion) => Number(suggestion.tempId.slice(1));
  const anchor = (suggestion: Suggestion) => {
    const own = context.get(suggestion.tempId)!;
    return own.required[0] ?? own.optional[0] ?? "~";
  };
  const ordered = pieces
    .map((piece) => [...piece].sort((a, b) => position(a) - position(b)))
    .sort((a, b) => compareExperienceIds(anchor(a[0]!), anchor(b[0]!)) || position(a[0]!) - position(b[0]!));
  return chunkByPromptSize({
    items: input.suggestions,
    groups: ordered,
    itemTokens,
    contextOf: (suggestion) => context.get(suggestion.tempId)!,
    contextTokens: (id) => lineTokens.get(id) ?? 0,
    allContext: live.map((entry) => entry.id),
    overhead,
    maxTokens: input.maxPromptTokens,
  });
}
