import {
  type Experience,
  type ExperienceContrast,
  type ExperienceStatus,
  entryContrast,
  observedUtility,
  TfgrpoError,
  unitUtility,
  utilityScore,
} from "@tfgrpo/protocol";
import type { RetrievalConfig } from "./actor-config.js";
import { createDotProductKernel } from "./dot-product-kernel.js";
import {
  experienceLineTokens,
  learnedBlockOverheadTokens,
  mostUsefulBlockOverheadTokens,
} from "./experience-block.js";
import { createScopeFilter } from "./scope-filter.js";
import { unitVector } from "./unit-vector.js";

export interface ScoredExperience {
  id: string;
  text: string;
  status: ExperienceStatus;
  /** Cosine similarity to the task (0 without embeddings). */
  similarity: number;
  /** The entry's utility (the curator's formula, `utilityScore`) mapped into [0, 1] by `unitUtility`. */
  utility: number;
  /** similarityWeight * similarity + utilityWeight * utility. */
  score: number;
  tokens: number;
  /** Groups the entry's contrast has (how settled its effect is). */
  contrasts: number;
  /** The contrast's counters, from which the exposure judges whether its decision is open (absent: none yet). */
  contrast?: ExperienceContrast;
}

export interface ExperienceSelection {
  /** all: the library is small enough to show every active entry; top-k: retrieval; none: nothing to show. */
  mode: "all" | "top-k" | "none";
  /** What the prompt shows, sorted by id (a stable order, so prompt prefixes repeat across tasks). */
  shown: ScoredExperience[];
  /** Entries repeated at the end of the block, most useful first (a subset of `shown`). */
  mostUseful: ScoredExperience[];
  /** Estimated tokens of the whole experience block, headings included. */
  tokens: number;
  /** The budget `tokens` stays within. */
  budget: number;
  /** Entries that could have been shown (not archived). */
  eligible: number;
  /** Entries left out because a better entry of their conflict group was shown. */
  droppedByConflictGroup: number;
  /** Entries left out because the task matches where they do not apply (`scope.whenNot`); absent: none. */
  droppedByScope?: number;
}

export interface ExperienceIndex {
  /** Entries the index can show (not archived). */
  readonly size: number;
  /** Embedding dimensions (0 when the entries have no embeddings). */
  readonly dimensions: number;
  /**
   * Picks the entries for one task. `taskEmbedding` must be unit-length with the index's dimensions; null means
   * no similarity signal (utility alone ranks). `taskText` lets entries whose `scope.whenNot` has no embedding
   * still be matched, by their words.
   */
  select(taskEmbedding: Float32Array | null, taskText?: string): ExperienceSelection;
}

export interface CreateExperienceIndexOptions {
  experiences: readonly Experience[];
  config: RetrievalConfig;
  /** Unit-length embedding of an entry's text; entries without one get similarity 0. */
  embeddingOf?: (experience: Experience) => Float32Array | undefined;
  /** Embedding of an entry's `scope.whenNot` clause; without it the clause is matched by its words. */
  whenNotEmbeddingOf?: (experience: Experience) => Float32Array | undefined;
}

const emptySelection = (budget: number, eligible: number): ExperienceSelection => ({
  mode: "none",
  shown: [],
  mostUseful: [],
  tokens: 0,
  budget,
  eligible,
  droppedByConflictGroup: 0,
});

/**
 * Precomputes everything about a library version that does not depend on the task (versions are immutable, so an
 * index is built once per version and reused for every rollout): an n x d embedding matrix, UCB utilities, line
 * token costs, conflict groups. `select` is then one matrix-vector product plus a bounded heap, which keeps
 * retrieval over 10,000 entries in a few milliseconds.
 */
export function createExperienceIndex(options: CreateExperienceIndexOptions): ExperienceIndex {
  const { config } = options;
  const entries = options.experiences.filter((experience) => experience.status !== "archived");
  const n = entries.length;

  let dimensions = 0;
  const vectors: (Float32Array | undefined)[] = entries.map((experience) => {
    const vector = options.embeddingOf?.(experience);
    if (vector && vector.length > 0) {
      if (dimensions === 0) dimensions = vector.length;
      else if (vector.length !== dimensions) {
        throw new TfgrpoError(
          "invalid_input",
          `experience ${experience.id}: embedding has ${vector.length} dimensions, others have ${dimensions}`,
          { details: { id: experience.id } },
        );
      }
    }
    return vector;
  });
  const matrix = new Float32Array(n * dimensions);
  vectors.forEach((vector, row) => {
    if (vector) matrix.set(unitVector(vector), row * dimensions);
  });
  const kernel = dimensions > 0 ? createDotProductKernel(matrix, n, dimensions) : undefined;
  const scope = createScopeFilter(entries, options.whenNotEmbeddingOf, {
    minSimilarity: config.scopeMinSimilarity,
    margin: config.scopeMargin,
  });
  const outOfScope = new Uint8Array(n);

  let totalShown = 0;
  for (const experience of entries) totalShown += experience.stats.shown;
  const utility = new Float64Array(n);
  const usefulness = new Float64Array(n);
  const proven = new Uint8Array(n);
  const contrasted = entries.some((experience) => (experience.stats.contrast?.n ?? 0) > 0);
  const tokens = new Int32Array(n);
  const regular = new Uint8Array(n);
  const group = new Int32Array(n).fill(-1);
  const numericId = new Float64Array(n);
  const groupIds = new Map<string, number>();
  let regularCount = 0;
  entries.forEach((experience, row) => {
    // The lifecycle's formula, so retrieval favours the entries the curator ranks high (kernel experience-utility).
    utility[row] = unitUtility(utilityScore(experience.stats, totalShown, config.utility));
    // "Most useful" is what the evidence shows helps: the contrast's lower bound once the library has contrasts (an
    // entry is proven when its interval lies above 0), before that the observed utility as the paper's loop had it.
    if (contrasted) {
      const interval = entryContrast(experience.stats);
      usefulness[row] = interval.n > 0 ? interval.lower : Number.NEGATIVE_INFINITY;
      proven[row] = interval.n > 0 && interval.lower > 0 ? 1 : 0;
    } else {
      usefulness[row] = observedUtility(experience.stats, config.utility.kind);
      proven[row] = experience.stats.shown >= config.mostUsefulMinShown && usefulness[row]! > 0.5 ? 1 : 0;
    }
    tokens[row] = experienceLineTokens(experience);
    // Probation entries are selected like active ones (with varied exposure they are shown only in their group's
    // shown arm: applyExposure); candidates are new and unproven.
    regular[row] = experience.status === "candidate" ? 0 : 1;
    regularCount += regular[row]!;
    numericId[row] = Number(experience.id.slice(1));
    if (experience.conflictGroup !== undefined) {
      let id = groupIds.get(experience.conflictGroup);
      if (id === undefined) {
        id = groupIds.size;
        groupIds.set(experience.conflictGroup, id);
      }
      group[row] = id;
    }
  });

  const cap = Math.floor(config.maxShareOfSystemPrompt * config.systemPromptTokenLimit);
  const allMode = regularCount <= config.allActiveThreshold;
  // With a small library every active entry is shown, as in the paper; beyond that, retrieval picks. Both stay within
  // the token budget the curator keeps the active set in, and within the share of the system prompt.
  const budget = Math.min(config.tokenBudget, cap);
  const similarity = new Float64Array(n);
  const score = new Float64Array(n);
  const groupBest = new Int32Array(groupIds.size);

  return {
    size: n,
    dimensions,
    select(taskEmbedding, taskText) {
      if (n === 0) return emptySelection(budget, 0);
      if (taskEmbedding && dimensions > 0 && taskEmbedding.length !== dimensions) {
        throw new TfgrpoError(
          "invalid_input",
          `task embedding has ${taskEmbedding.length} dimensions, the library's entries have ${dimensions}`,
        );
      }
      if (taskEmbedding !== null && kernel) kernel.dotAll(taskEmbedding, similarity);
      else similarity.fill(0);
      for (let row = 0; row < n; row++) {
        const dot = similarity[row]!;
        // Negative cosine means unrelated, not "anti-relevant": it should not push utility below unrelated entries.
        score[row] = config.similarityWeight * Math.max(dot, 0) + config.utilityWeight * utility[row]!;
      }

      // An entry whose `whenNot` matches the task is out before anything else: it does not compete for its
      // conflict group, the candidate slot or the budget.
      const droppedByScope = scope.mark(
        taskEmbedding !== null && kernel ? taskEmbedding : null,
        taskText,
        similarity,
        outOfScope,
      );

      // One entry per conflict group: the best-scoring one.
      groupBest.fill(-1);
      for (let row = 0; row < n; row++) {
        const g = group[row]!;
        if (outOfScope[row] === 1) continue;
        if (g >= 0 && (groupBest[g]! < 0 || score[row]! > score[groupBest[g]!]!)) groupBest[g] = row;
      }
      let droppedByConflictGroup = 0;
      const inGroup = (row: number) => {
        const g = group[row]!;
        return g < 0 || groupBest[g] === row;
      };
      const alive = (row: number) => outOfScope[row] === 0 && inGroup(row);

      // The best candidates come first so at least `minCandidates` new entries are tried on every task.
      const reserved = topRows(n, config.minCandidates, score, (row) => regular[row] === 0 && alive(row));
      const reservedSet = new Set(reserved);
      let ranked: number[];
      let maxCount: number;
      if (allMode) {
        ranked = [];
        for (let row = 0; row < n; row++) {
          if (outOfScope[row] === 1) continue;
          if (!inGroup(row)) droppedByConflictGroup++;
          else if (regular[row] === 1) ranked.push(row);
        }
        ranked.sort((a, b) => score[b]! - score[a]!);
        // Further candidates fill the room up to the all-active threshold, best first.
        const room = Math.max(0, config.allActiveThreshold - ranked.length - reserved.length);
        const extra = topRows(
          n,
          room,
          score,
          (row) => regular[row] === 0 && alive(row) && !reservedSet.has(row),
        );
        ranked = [...reserved, ...ranked, ...extra];
        maxCount = Number.POSITIVE_INFINITY;
      } else {
        for (let row = 0; row < n; row++)
          if (outOfScope[row] === 0 && !inGroup(row)) droppedByConflictGroup++;
        // A few times topK deep: enough to fill the budget even when some of the best entries are too long.
        const depth = config.topK * 4 + 32;
        const best = topRows(n, depth, score, (row) => alive(row) && !reservedSet.has(row));
        ranked = [...reserved, ...best];
        maxCount = config.topK;
      }

      let used = learnedBlockOverheadTokens;
      const chosen: number[] = [];
      for (const row of ranked) {
        if (chosen.length >= maxCount) break;
        const cost = tokens[row]!;
        if (used + cost > budget) continue;
        used += cost;
        chosen.push(row);
      }
      if (chosen.length === 0)
        return {
          ...emptySelection(budget, n),
          droppedByConflictGroup,
          ...(droppedByScope > 0 ? { droppedByScope } : {}),
        };

      // Repeat the entries that have proven most useful (observed utility, no exploration bonus, no task
      // similarity): the choice then depends only on the library version, so with a small library the whole system
      // prompt is identical across tasks and stays cacheable. Entries without evidence are never "most useful".
      const mostUsefulRows: number[] = [];
      if (config.mostUsefulCount > 0 && chosen.length > config.mostUsefulCount) {
        const byUse = chosen
          .filter((row) => proven[row] === 1)
          .sort((a, b) => usefulness[b]! - usefulness[a]! || numericId[a]! - numericId[b]!);
        let extra = mostUsefulBlockOverheadTokens;
        for (const row of byUse.slice(0, config.mostUsefulCount)) {
          if (used + extra + tokens[row]! > budget) break;
          extra += tokens[row]!;
          mostUsefulRows.push(row);
        }
        if (mostUsefulRows.length > 0) used += extra;
      }

      const scored = (row: number): ScoredExperience => {
        const experience = entries[row]!;
        return {
          id: experience.id,
          text: experience.text,
          status: experience.status,
          similarity: similarity[row]!,
          utility: utility[row]!,
          score: score[row]!,
          tokens: tokens[row]!,
          contrasts: experience.stats.contrast?.n ?? 0,
          ...(experience.stats.contrast ? { contrast: experience.stats.contrast } : {}),
        };
      };
      chosen.sort((a, b) => numericId[a]! - numericId[b]!);
      return {
        mode: allMode ? "all" : "top-k",
        shown: chosen.map(scored),
        mostUseful: mostUsefulRows.map(scored),
        tokens: used,
        budget,
        eligible: n,
        droppedByConflictGroup,
        ...(droppedByScope > 0 ? { droppedByScope } : {}),
      };
    },
  };
}

/** Rows with the highest scores among those `accept`s, best first; ties broken by row order. O(n log k). */
function topRows(n: number, k: number, score: Float64Array, accept: (row: number) => boolean): number[] {
  if (k <= 0) return [];
  // A min-heap of size k holding the best rows seen so far.
  const heap: number[] = [];
  const worse = (a: number, b: number) => score[a]! < score[b]! || (score[a] === score[b] && a > b);
  const siftUp = (index: number) => {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!worse(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  };
  const siftDown = (index: number) => {
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
      index = smallest;
    }
  };
  for (let row = 0; row < n; row++) {
    if (heap.length === k && !worse(heap[0]!, row)) continue;
    if (!accept(row)) continue;
    if (heap.length < k) {
      heap.push(row);
      siftUp(heap.length - 1);
    } else {
      heap[0] = row;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
