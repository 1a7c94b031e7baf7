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
import { createSimilarityIndex } from "./similarity-index.js";

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
}

/**
 * The consolidation prompts of a batch: the whole library and batch in one prompt when they fit the budget, else
 * chunks of related suggestions (ordered by the entry they target or their nearest entry), each with the entries its
 * suggestions name plus their nearest neighbours, as many as fit.
 */
export function planConsolidationChunks(input: PlanConsolidationChunksInput): Chunk<Suggestion>[] {
  const { live } = input;
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
  // Related suggestions next to each other (same target or same nearest entry), so they meet in one prompt.
  const anchor = (suggestion: Suggestion) => {
    const own = context.get(suggestion.tempId)!;
    return own.required[0] ?? own.optional[0] ?? "~";
  };
  const ordered = [...input.suggestions].sort(
    (a, b) =>
      compareExperienceIds(anchor(a), anchor(b)) || Number(a.tempId.slice(1)) - Number(b.tempId.slice(1)),
  );
  return chunkByPromptSize({
    items: ordered,
    itemTokens: (suggestion) => estimateTokens(`${suggestionLine(suggestion, input.wordLimit)},\n`),
    contextOf: (suggestion) => context.get(suggestion.tempId)!,
    contextTokens: (id) => lineTokens.get(id) ?? 0,
    allContext: live.map((entry) => entry.id),
    overhead,
    maxTokens: input.maxPromptTokens,
  });
}
