import { addUsage, type Experience, TfgrpoError, type UsageTotals } from "@tfgrpo/protocol";
import type { UsageTally } from "./check-conflicts.js";
import type { Chunk } from "./chunk-by-prompt-size.js";
import type { Suggestion } from "./consolidation-prepass.js";
import { consolidationAnswerSchema, consolidationMessages } from "./consolidation-prompt.js";
import { compareExperienceIds } from "./credit-deltas.js";
import type { CuratorContext } from "./curator-context.js";
import { fnv1a } from "./hashing-embedder.js";
import { type MappedAnswer, mapConsolidationAnswer } from "./map-consolidation-answer.js";

/**
 * One consolidation call: the chunk's suggestions and context entries to the curator model, its answer mapped to
 * operations on library ids. Usage is added to `usage`, also when the call fails; a `model_error` (an answer still
 * unusable after the models layer's repair and retries) is thrown for the caller to fall back.
 */
export async function consolidateChunk(
  context: CuratorContext,
  input: {
    domain: string;
    chunk: Chunk<Suggestion>;
    library: ReadonlyMap<string, Experience>;
    /** Names the call in the seed, so the same batch asks the same question (`${runId}:${domain}:${chunk}`). */
    seedKey: string;
    usage: UsageTally;
  },
): Promise<MappedAnswer> {
  const { config, models } = context;
  const experiences = input.chunk.context
    .map((id) => input.library.get(id)!)
    .sort((a, b) => compareExperienceIds(a.id, b.id));
  try {
    const result = await models.structured("curator", {
      messages: consolidationMessages({
        domain: input.domain,
        wordLimit: config.wordLimit,
        experiences,
        suggestions: input.chunk.items,
      }),
      schema: consolidationAnswerSchema,
      name: "consolidation",
      description: "final operations on the experience library",
      seed: fnv1a(input.seedKey) & 0x7fffffff,
    });
    input.usage.totals = addUsage(input.usage.totals, result.usage);
    return mapConsolidationAnswer({
      answer: result.value,
      suggestions: input.chunk.items,
      library: input.library,
      wordLimit: config.wordLimit,
    });
  } catch (error) {
    if (TfgrpoError.hasCode(error, "model_error")) {
      const details = error.details?.usage as UsageTotals | undefined;
      if (details && typeof details.inputTokens === "number")
        input.usage.totals = addUsage(input.usage.totals, details);
    }
    throw error;
  }
}
