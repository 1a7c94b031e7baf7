import {
  emptyUsageTotals,
  type Operation,
  type Proposal,
  TfgrpoError,
  type UsageTotals,
} from "@tfgrpo/protocol";
import { type ConflictSummary, checkConflicts, type UsageTally } from "./check-conflicts.js";
import { consolidateChunk } from "./consolidate-chunk.js";
import { consolidationPrepass, type PrepassResult } from "./consolidation-prepass.js";
import { type CuratorContext, loadLibrary, summarizeOperations } from "./curator-context.js";
import { keepMeasuredEntries } from "./keep-measured-entries.js";
import { limitLibraryEntries } from "./limit-library-entries.js";
import { fallbackOperations } from "./map-consolidation-answer.js";
import { planConsolidationChunks } from "./plan-consolidation-chunks.js";
import { type ChunkResult, reconcileChunkResults } from "./reconcile-chunk-results.js";
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
  /** Results of different chunks on one topic put to one more curator call (0 calls when none met). */
  reconcile: { results: number; calls: number };
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
  const { config, store, logger, now } = context;
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
    groupSimilarity: config.consolidation.groupSimilarity,
  });
  const results: ChunkResult[] = [];
  for (const [chunkIndex, chunk] of chunks.entries()) {
    const where = chunks.length > 1 ? `chunk ${chunkIndex + 1}/${chunks.length}: ` : "";
    if (chunk.oversize)
      notes.push(`${where}over the prompt budget even alone (${chunk.tokens} tokens); texts clipped`);
    try {
      const mapped = await consolidateChunk(context, {
        domain: input.domain,
        chunk,
        library: byId,
        seedKey: `${input.runId}:${input.domain}:${chunkIndex}`,
        usage,
      });
      results.push({ chunk: chunkIndex, operations: mapped.operations });
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
      notes.push(
        `${where}${why} (${error.message.slice(0, 200)}): the chunk's proposals are kept as candidates`,
      );
      const kept = fallbackOperations(chunk.items, config.wordLimit, why);
      results.push({ chunk: chunkIndex, operations: kept.operations });
      notes.push(...kept.notes.map((note) => `${where}${note}`));
    }
  }
  // Chunks were consolidated apart: results of different chunks on one topic get one more call together.
  const reconciledChunks = await reconcileChunkResults(context, {
    runId: input.runId,
    domain: input.domain,
    library: byId,
    results,
    vectors,
    usage,
  });
  operations.push(...reconciledChunks.operations);
  notes.push(...reconciledChunks.notes);
  operations.push(...prepass.libraryMerges);
  const reconciled = reconcileOperations(operations, byId, { minContentWords: config.minContentWords });
  notes.push(...reconciled.notes);
  const measured = keepMeasuredEntries(reconciled.operations, byId, {
    minContrasts: config.lifecycle.minContrasts,
  });
  notes.push(...measured.notes);
  const limited = limitLibraryEntries(library, measured.operations, config.wordLimit);
  notes.push(...limited.notes);
  const checked = await checkConflicts(context, library, limited.operations, false, usage);
  notes.push(...checked.notes);
  const final = checked.operations;
  const base: Omit<ConsolidateResult, "version" | "operations" | "createdIds"> = {
    notes,
    usage: usage.totals,
    fallback,
    chunks: chunks.length,
    reconcile: { results: reconciledChunks.reconciled, calls: reconciledChunks.calls },
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
