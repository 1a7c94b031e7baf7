import type { Experience } from "@tfgrpo/protocol";
import { unitVector } from "./unit-vector.js";

export interface ScopeFilterOptions {
  /** Cosine (task, whenNot clause) an entry must reach before its exclusion can apply. */
  minSimilarity: number;
  /** ... and by how much it must beat the cosine (task, entry text): the task reads as the exclusion, not the lesson. */
  margin: number;
}

export interface ScopeFilter {
  /** Entries with a `scope.whenNot` clause. */
  readonly scoped: number;
  /**
   * Marks in `out` (1) the rows whose `whenNot` matches the task. With a task embedding and the clause's embedding:
   * cosine at or above `minSimilarity` and at least `margin` above the row's similarity to the task. Otherwise,
   * lexically: every content word of the clause (at least two) appears in the task's text.
   */
  mark(
    taskEmbedding: Float32Array | null,
    taskText: string | undefined,
    similarity: Float64Array,
    out: Uint8Array,
  ): number;
}

/**
 * Seed 002 §5.1: an entry says where it does not apply (`scope.whenNot`, written by the critic), and retrieval leaves
 * it out of tasks that match that clause. The clause names a neighbouring situation, so it is compared with the task
 * against the entry's own text: a task about the entry's situation stays closer to the entry than to its exclusion.
 * The lexical fallback (no embeddings) is strict on purpose: word overlap cannot tell "the same size" from
 * "different sizes", so only a task that states every content word of the clause counts.
 */
export function createScopeFilter(
  entries: readonly Experience[],
  whenNotEmbeddingOf: ((experience: Experience) => Float32Array | undefined) | undefined,
  options: ScopeFilterOptions,
): ScopeFilter {
  const rows: { row: number; vector: Float32Array | undefined; stems: string[] }[] = [];
  entries.forEach((experience, row) => {
    const clause = experience.scope?.whenNot?.trim();
    if (!clause) return;
    const vector = whenNotEmbeddingOf?.(experience);
    rows.push({
      row,
      vector: vector && vector.length > 0 ? unitVector(vector) : undefined,
      stems: contentStems(clause),
    });
  });
  return {
    scoped: rows.length,
    mark(taskEmbedding, taskText, similarity, out) {
      out.fill(0);
      if (rows.length === 0) return 0;
      let taskStems: Set<string> | undefined;
      let marked = 0;
      for (const { row, vector, stems } of rows) {
        let matches = false;
        if (taskEmbedding && vector && vector.length === taskEmbedding.length) {
          const cosine = dot(taskEmbedding, vector);
          matches = cosine >= options.minSimilarity && cosine >= similarity[row]! + options.margin;
        } else if (taskText !== undefined && stems.length >= 2) {
          taskStems ??= new Set(contentStems(taskText));
          matches = stems.every((stem) => taskStems!.has(stem));
        }
        if (matches) {
          out[row] = 1;
          marked++;
        }
      }
      return marked;
    },
  };
}

const stopwords = new Set(
  (
    "a an the and or of to in on at by for with from into as is are was were be been it its this that these those " +
    "there then than so such which who what when where while if each any all some you we they can may will would " +
    "only does do not no one"
  ).split(" "),
);

/** Lowercase content words with a plural "s" dropped: enough for "groups" ~ "group", no more. */
function contentStems(text: string): string[] {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const out: string[] = [];
  for (const word of words) {
    if (word === "" || stopwords.has(word)) continue;
    out.push(word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word);
  }
  return [...new Set(out)];
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}
