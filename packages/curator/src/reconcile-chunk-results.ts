import { type Experience, type Operation, TfgrpoError } from "@tfgrpo/protocol";
import type { UsageTally } from "./check-conflicts.js";
import { consolidateChunk } from "./consolidate-chunk.js";
import type { Suggestion } from "./consolidation-prepass.js";
import type { CuratorContext } from "./curator-context.js";
import { groupBySimilarity } from "./group-by-similarity.js";
import { planConsolidationChunks } from "./plan-consolidation-chunks.js";

/** The operations one consolidation chunk produced. */
export interface ChunkResult {
  chunk: number;
  operations: Operation[];
}

export interface ReconcileChunkResultsInput {
  runId: string;
  domain: string;
  /** The base library by id, archived entries included. */
  library: ReadonlyMap<string, Experience>;
  results: readonly ChunkResult[];
  /** Embeddings of the live library texts (more are fetched for the chunks' new texts). */
  vectors: ReadonlyMap<string, ArrayLike<number>>;
  usage: UsageTally;
}

export interface ReconcileChunkResultsResult {
  operations: Operation[];
  notes: string[];
  /** Curator calls made (0 when no two chunks' results are on one topic). */
  calls: number;
  /** Chunk results put to the reconciling call(s). */
  reconciled: number;
}

/**
 * The chunks of one batch were consolidated apart; this makes their results one coherent set. The texts the chunks
 * wrote (additions and rewrites) are grouped by meaning like the suggestions were; where a group holds results of two
 * or more chunks (paraphrases, or opposite advice, that the chunking still separated), those results go to one more
 * curator call as suggestions, with the library entries they touch, and its answer replaces them. Results the call
 * leaves out stay as their chunk decided; if its answer is unusable, all of them do. Everything else passes through
 * unchanged, and no call is made when nothing meets across chunks.
 */
export async function reconcileChunkResults(
  context: CuratorContext,
  input: ReconcileChunkResultsInput,
): Promise<ReconcileChunkResultsResult> {
  const all = input.results.flatMap((result) => result.operations);
  if (input.results.length < 2) return { operations: all, notes: [], calls: 0, reconciled: 0 };
  const written = input.results.flatMap((result) =>
    result.operations.flatMap((op) =>
      op.op === "add" || (op.op === "modify" && op.text !== undefined)
        ? [{ chunk: result.chunk, op, text: op.text!.replace(/\s+/g, " ").trim() }]
        : [],
    ),
  );
  if (written.length < 2) return { operations: all, notes: [], calls: 0, reconciled: 0 };
  const { config } = context;
  const own = await context.embed(written.map((item) => item.text));
  const { groups } = groupBySimilarity(
    written.map((item) => own.get(item.text)!),
    {
      threshold: config.consolidation.groupSimilarity,
      keyOf: (at) => {
        const op = written[at]!.op;
        return op.op === "modify" ? op.id : undefined;
      },
      seed: config.indexSeed,
    },
  );
  const shared = groups.filter((group) => new Set(group.map((at) => written[at]!.chunk)).size >= 2).flat();
  if (shared.length === 0) return { operations: all, notes: [], calls: 0, reconciled: 0 };
  shared.sort((a, b) => a - b);

  const original = new Map<string, Operation>();
  const suggestions: Suggestion[] = shared.map((at, order) => {
    const { op, text } = written[at]!;
    const tempId = `P${order + 1}`;
    original.set(tempId, op);
    return {
      tempId,
      option: op.op === "modify" ? "modify" : "add",
      ...(op.op === "modify" ? { targetId: op.id } : {}),
      text,
      reason: op.reason,
      sources: [],
    };
  });
  const live = [...input.library.values()].filter((entry) => entry.status !== "archived");
  const chunks = planConsolidationChunks({
    domain: input.domain,
    live,
    suggestions,
    vectors: new Map([...input.vectors, ...own]),
    wordLimit: config.wordLimit,
    maxPromptTokens: config.maxPromptTokens,
    contextNeighbours: config.contextNeighbours,
    indexSeed: config.indexSeed,
    groupSimilarity: config.consolidation.groupSimilarity,
  });
  const replaced = new Set<Operation>(shared.map((at) => written[at]!.op));
  const operations = all.filter((op) => !replaced.has(op));
  const notes = [
    `reconcile: ${shared.length} results of ${new Set(shared.map((at) => written[at]!.chunk)).size} chunks meet on a topic across chunks: put to one more curator pass`,
  ];
  let calls = 0;
  for (const [index, chunk] of chunks.entries()) {
    const where = `reconcile${chunks.length > 1 ? ` ${index + 1}/${chunks.length}` : ""}: `;
    // A prompt with room for one result only (a tiny budget) has nothing to reconcile: the result stands.
    if (chunk.items.length < 2) {
      operations.push(...chunk.items.map((suggestion) => original.get(suggestion.tempId)!));
      continue;
    }
    calls++;
    try {
      const mapped = await consolidateChunk(context, {
        domain: input.domain,
        chunk,
        library: input.library,
        seedKey: `${input.runId}:${input.domain}:reconcile:${index}`,
        usage: input.usage,
      });
      operations.push(...mapped.operations);
      // A result the reconciling call leaves out was already the chunk's decision: it stands.
      const kept = mapped.leftOut ?? [];
      operations.push(...kept.map((suggestion) => original.get(suggestion.tempId)!));
      notes.push(
        ...mapped.notes
          .filter((note) => !note.startsWith("the model left out"))
          .map((note) => `${where}${note}`),
      );
      if (kept.length > 0)
        notes.push(`${where}${kept.length} result(s) left out by the call keep their chunk's decision`);
    } catch (error) {
      if (!TfgrpoError.hasCode(error, "model_error")) throw error;
      context.logger.warn("reconciling chunk results failed; chunk decisions stand", {
        domain: input.domain,
        error: error.message,
      });
      notes.push(
        `${where}model answer unusable (${error.message.slice(0, 200)}): the chunks' decisions stand`,
      );
      operations.push(...chunk.items.map((suggestion) => original.get(suggestion.tempId)!));
    }
  }
  return { operations, notes, calls, reconciled: shared.length };
}
