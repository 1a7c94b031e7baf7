import {
  addUsage,
  emptyUsageTotals,
  type Operation,
  type Proposal,
  TfgrpoError,
  type UsageTotals,
} from "@tfgrpo/protocol";
import { type ConflictSummary, checkConflicts, type UsageTally } from "./check-conflicts.js";
import { consolidationPrepass, type PrepassResult } from "./consolidation-prepass.js";
import { consolidationAnswerSchema, consolidationMessages } from "./consolidation-prompt.js";
import { compareExperienceIds } from "./credit-deltas.js";
import { type CuratorContext, loadLibrary, summarizeOperations } from "./curator-context.js";
import { fnv1a } from "./hashing-embedder.js";
import { limitLibraryEntries } from "./limit-library-entries.js";
import { fallbackOperations, mapConsolidationAnswer } from "./map-consolidation-answer.js";
import { planConsolidationChunks } from "./plan-consolidation-chunks.js";
import { reconcileOperations } from "./reconcile-operations.js";

export interface ConsolidateInput {
  runId: string;
  domain: string;
  /** The library version the proposals were made against; null for an empty library. */
  baseVersion: number | null;
  proposals: readonly Proposal[];
}

export interface ConsolidateResult {
  /** The proposed version written, or null when nothing changes. */
  version: number | null;
  operations: Operation[];
  notes: string[];
  usage: UsageTotals;
  createdIds: string[];
  /** True when the model's answer was unusable for at least one chunk and proposals were kept as candidates. */
  fallback: boolean;
  chunks: number;
  prepass: PrepassResult["stats"];
  conflicts: ConflictSummary;
}

/**
 * A batch's proposals -> one proposed version: the deterministic pre-pass (duplicates, vague and over-long lessons),
 * chunked model consolidation against the entries each chunk touches, reconciliation, the word limit and the
 * conflict check. An unusable model answer keeps that chunk's proposals as candidates rather than losing them.
 */
export async function consolidate(
  context: CuratorContext,
  input: ConsolidateInput,
): Promise<ConsolidateResult> {
  const { config, models, store, logger, now } = context;
  const library = await loadLibrary(context, input.domain, input.baseVersion);
  const byId = new Map(library.map((entry) => [entry.id, entry]));
  const live = library.filter((entry) => entry.status !== "archived");
  const usage: UsageTally = { totals: emptyUsageTotals() };
  const vectors = await context.embed([
    ...live.map((entry) => entry.text),
    ...input.proposals.flatMap((proposal) =>
      proposal.text?.trim() ? [proposal.text.replace(/\s+/g, " ").trim()] : [],
    ),
  ]);
  const prepass = consolidationPrepass({
    library,
    proposals: input.proposals,
    embeddings: vectors,
    wordLimit: config.wordLimit,
    nearDuplicateSimilarity: config.duplicates.nearDuplicateSimilarity,
    minContentWords: config.minContentWords,
    index: { seed: config.indexSeed },
  });
  const notes = [...prepass.notes];
  const operations: Operation[] = [];
  let fallback = false;
  const chunks = planConsolidationChunks({
    domain: input.domain,
    live,
    suggestions: prepass.suggestions,
    vectors,
    wordLimit: config.wordLimit,
    maxPromptTokens: config.maxPromptTokens,
    contextNeighbours: config.contextNeighbours,
    indexSeed: config.indexSeed,
  });
  for (const [chunkIndex, chunk] of chunks.entries()) {
    const where = chunks.length > 1 ? `chunk ${chunkIndex + 1}/${chunks.length}: ` : "";
    if (chunk.oversize)
      notes.push(`${where}over the prompt budget even alone (${chunk.tokens} tokens); texts clipped`);
    const contextEntries = chunk.context
      .map((id) => byId.get(id)!)
      .sort((a, b) => compareExperienceIds(a.id, b.id));
    try {
      const result = await models.structured("curator", {
        messages: consolidationMessages({
          domain: input.domain,
          wordLimit: config.wordLimit,
          experiences: contextEntries,
          suggestions: chunk.items,
        }),
        schema: consolidationAnswerSchema,
        name: "consolidation",
        description: "final operations on the experience library",
        seed: fnv1a(`${input.runId}:${input.domain}:${chunkIndex}`) & 0x7fffffff,
      });
      usage.totals = addUsage(usage.totals, result.usage);
      const mapped = mapConsolidationAnswer({
        answer: result.value,
        suggestions: chunk.items,
        library: byId,
        wordLimit: config.wordLimit,
      });
      operations.push(...mapped.operations);
      notes.push(...mapped.notes.map((note) => `${where}${note}`));
    } catch (error) {
      if (!TfgrpoError.hasCode(error, "model_error")) throw error;
      fallback = true;
      const why = "model answer unusable";
      logger.warn("consolidation fell back to candidates", {
        domain: input.domain,
        chunk: chunkIndex,
        error: error.message,
      });
      const details = error.details?.usage as UsageTotals | undefined;
      if (details && typeof details.inputTokens === "number") usage.totals = addUsage(usage.totals, details);
      notes.push(
        `${where}${why} (${error.message.slice(0, 200)}): the chunk's proposals are kept as candidates`,
      );
      const kept = fallbackOperations(chunk.items, config.wordLimit, why);
      operations.push(...kept.operations);
      notes.push(...kept.notes.map((note) => `${where}${note}`));
    }
  }
  operations.push(...prepass.libraryMerges);
  const reconciled = reconcileOperations(operations, byId, { minContentWords: config.minContentWords });
  notes.push(...reconciled.notes);
  const limited = limitLibraryEntries(library, reconciled.operations, config.wordLimit);
  notes.push(...limited.notes);
  const checked = await checkConflicts(context, library, limited.operations, false, usage);
  notes.push(...checked.notes);
  const final = checked.operations;
  const base: Omit<ConsolidateResult, "version" | "operations" | "createdIds"> = {
    notes,
    usage: usage.totals,
    fallback,
    chunks: chunks.length,
    prepass: prepass.stats,
    conflicts: checked.summary,
  };
  if (!final.some((op) => op.op !== "keep")) {
    return { ...base, version: null, operations: final, createdIds: [] };
  }
  const message = `consolidation of ${input.proposals.length} proposals: ${summarizeOperations(final)}`;
  try {
    const written = await store.applyOperations(input.domain, final, {
      parent: input.baseVersion,
      state: "proposed",
      runId: input.runId,
      message,
      now: now(),
    });
    logger.info("consolidated", { domain: input.domain, version: written.version.version, message });
    return { ...base, version: written.version.version, operations: final, createdIds: written.createdIds };
  } catch (error) {
    if (!TfgrpoError.hasCode(error, "invalid_operations")) throw error;
    // Our operations should never be refused; if they are, the batch is still not lost.
    logger.warn("store refused consolidated operations; keeping proposals as candidates", {
      error: error.message,
    });
    notes.push(
      `store refused the consolidated operations (${error.message.slice(0, 300)}): proposals kept as candidates`,
    );
    const kept = fallbackOperations(prepass.suggestions, config.wordLimit, "operations refused by the store");
    notes.push(...kept.notes);
    const safe = reconcileOperations(kept.operations, byId).operations;
    if (safe.length === 0) return { ...base, fallback: true, version: null, operations: [], createdIds: [] };
    const written = await store.applyOperations(input.domain, safe, {
      parent: input.baseVersion,
      state: "proposed",
      runId: input.runId,
      message: `${message} (fallback: proposals kept as candidates)`,
      now: now(),
    });
    return {
      ...base,
      fallback: true,
      version: written.version.version,
      operations: safe,
      createdIds: written.createdIds,
    };
  }
}
