import { TfgrpoError } from "@tfgrpo/protocol";
import { gaussian, seededRandom } from "./seeded-random.js";

export interface SimilarityIndexOptions {
  /** Seed of the random hyperplanes and of the table bit choices. */
  seed?: number;
  /** Hash tables (more tables: better recall, more candidate pairs). */
  tables?: number;
  /** Sketch bits per table (default grows with log2 of the size so buckets stay small). */
  bitsPerTable?: number;
  /** Buckets larger than this are not compared all-pairs: members are sorted by sketch and compared in a window. */
  maxBucket?: number;
  window?: number;
}

export interface SimilarPair {
  a: number;
  b: number;
  similarity: number;
}

export interface PairsOptions {
  /** Minimum cosine similarity of a reported pair. */
  threshold: number;
  /** Only pairs this accepts are considered (e.g. only pairs that involve a new entry). */
  accept?: (a: number, b: number) => boolean;
  /** Keep a pair only if it is among the k most similar pairs of one of its two items. */
  maxPerItem?: number;
}

export interface SimilarityIndex {
  readonly size: number;
  readonly dimensions: number;
  /** Exact cosine similarity of two indexed items. */
  similarity(a: number, b: number): number;
  /** Approximately all pairs at or above the threshold, without comparing every pair. */
  pairs(options: PairsOptions): SimilarPair[];
  /** The k most similar indexed items to a vector (or to an indexed item, which is then excluded). */
  neighbours(
    query: number | ArrayLike<number>,
    options: { k: number; threshold?: number; accept?: (index: number) => boolean },
  ): { index: number; similarity: number }[];
}

const SKETCH_BITS = 64;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * Near-neighbour blocking with random-hyperplane LSH (SimHash), so duplicate and conflict candidates are found in about
 * O(n * tables * bucket) instead of O(n^2): each vector gets a 64-bit sketch (the signs of 64 random projections);
 * each table buckets vectors by a random subset of those bits; only vectors sharing a bucket become candidate pairs,
 * filtered by the Hamming distance of their full sketches (an estimate of the angle) before the exact cosine.
 * Sparse vectors (such as the hashing embedder's) cost only their non-zero entries to sketch.
 */
export function createSimilarityIndex(
  input: readonly ArrayLike<number>[],
  options: SimilarityIndexOptions = {},
): SimilarityIndex {
  const size = input.length;
  const dimensions = size > 0 ? input[0]!.length : 0;
  const vectors: Float32Array[] = input.map((raw, index) => {
    if (raw.length !== dimensions) {
      throw new TfgrpoError(
        "invalid_input",
        `similarity index: vector ${index} has ${raw.length} dimensions, expected ${dimensions}`,
        { details: { index, dimensions: raw.length, expected: dimensions } },
      );
    }
    const vector = Float32Array.from(raw);
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += vector[d]! * vector[d]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let d = 0; d < dimensions; d++) vector[d]! /= norm;
    return vector;
  });

  const random = seededRandom(options.seed ?? 17);
  const normal = gaussian(random);
  // Transposed (dimension-major) so sketching a vector walks its non-zero entries once.
  const planes = new Float32Array(dimensions * SKETCH_BITS);
  for (let index = 0; index < planes.length; index++) planes[index] = normal();

  const accumulator = new Float64Array(SKETCH_BITS);
  const sketchOf = (vector: ArrayLike<number>): [number, number] => {
    accumulator.fill(0);
    for (let d = 0; d < dimensions; d++) {
      const value = vector[d]!;
      if (value === 0) continue;
      const base = d * SKETCH_BITS;
      for (let bit = 0; bit < SKETCH_BITS; bit++) accumulator[bit]! += value * planes[base + bit]!;
    }
    let high = 0;
    let low = 0;
    for (let bit = 0; bit < 32; bit++) {
      if (accumulator[bit]! > 0) high |= 1 << bit;
      if (accumulator[bit + 32]! > 0) low |= 1 << bit;
    }
    return [high >>> 0, low >>> 0];
  };
  const sketches = new Uint32Array(size * 2);
  vectors.forEach((vector, index) => {
    const [high, low] = sketchOf(vector);
    sketches[index * 2] = high;
    sketches[index * 2 + 1] = low;
  });

  const tableCount = options.tables ?? 32;
  const bitsPerTable =
    options.bitsPerTable ?? Math.min(16, Math.max(4, Math.ceil(Math.log2(Math.max(size, 1) / 32))));
  const maxBucket = options.maxBucket ?? 128;
  const window = options.window ?? 32;
  const keyOf = (high: number, low: number, bits: Uint8Array) => {
    let key = 0;
    for (let index = 0; index < bits.length; index++) {
      const bit = bits[index]!;
      const word = bit < 32 ? high : low;
      key = (key << 1) | ((word >>> (bit & 31)) & 1);
    }
    return key;
  };
  // Each table: its bit positions, and its members grouped by key with a counting sort (bucket k is
  // order[start[k]..start[k+1]]), which is faster and smaller than a Map of arrays.
  const tables = Array.from({ length: tableCount }, () => {
    const positions = Array.from({ length: SKETCH_BITS }, (_, index) => index);
    for (let index = positions.length - 1; index > 0; index--) {
      const swap = Math.floor(random() * (index + 1));
      [positions[index], positions[swap]] = [positions[swap]!, positions[index]!];
    }
    const bits = Uint8Array.from(positions.slice(0, bitsPerTable));
    const buckets = 1 << bitsPerTable;
    const keys = new Uint32Array(size);
    const start = new Uint32Array(buckets + 1);
    for (let index = 0; index < size; index++) {
      keys[index] = keyOf(sketches[index * 2]!, sketches[index * 2 + 1]!, bits);
      start[keys[index]! + 1]!++;
    }
    for (let key = 0; key < buckets; key++) start[key + 1]! += start[key]!;
    const fill = start.slice(0, buckets);
    const order = new Uint32Array(size);
    for (let index = 0; index < size; index++) order[fill[keys[index]!]!++] = index;
    return { bits, start, order };
  });

  const dot = (a: Float32Array, b: ArrayLike<number>) => {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) sum += a[d]! * b[d]!;
    return sum;
  };
  const hamming = (a: number, b: number) =>
    popcount(sketches[a * 2]! ^ sketches[b * 2]!) + popcount(sketches[a * 2 + 1]! ^ sketches[b * 2 + 1]!);
  /** Hamming distance above which two sketches are almost surely less similar than the threshold (2.5 sd slack). */
  const maxHamming = (threshold: number) => {
    const angle = Math.acos(Math.min(1, Math.max(-1, threshold))) / Math.PI;
    return Math.ceil(SKETCH_BITS * angle + 2.5 * Math.sqrt(SKETCH_BITS * angle * (1 - angle)) + 1);
  };
  const compareSketch = (a: number, b: number) =>
    sketches[a * 2]! - sketches[b * 2]! || sketches[a * 2 + 1]! - sketches[b * 2 + 1]!;

  return {
    size,
    dimensions,
    similarity: (a, b) => dot(vectors[a]!, vectors[b]!),
    pairs({ threshold, accept, maxPerItem }) {
      const limit = maxHamming(threshold);
      const seen = new Set<number>();
      const found: SimilarPair[] = [];
      const consider = (x: number, y: number) => {
        const a = Math.min(x, y);
        const b = Math.max(x, y);
        if (hamming(a, b) > limit) return;
        const key = a * size + b;
        if (seen.has(key)) return;
        seen.add(key);
        if (accept && !accept(a, b)) return;
        const similarity = dot(vectors[a]!, vectors[b]!);
        if (similarity >= threshold) found.push({ a, b, similarity });
      };
      for (const table of tables) {
        const buckets = table.start.length - 1;
        for (let key = 0; key < buckets; key++) {
          const from = table.start[key]!;
          const to = table.start[key + 1]!;
          const count = to - from;
          if (count < 2) continue;
          if (count <= maxBucket) {
            for (let i = from; i < to; i++)
              for (let j = i + 1; j < to; j++) consider(table.order[i]!, table.order[j]!);
          } else {
            // A crowded bucket (many near-identical texts): sorted by full sketch, neighbours share long prefixes.
            const members = Array.from(table.order.subarray(from, to)).sort(compareSketch);
            for (let i = 0; i < members.length; i++)
              for (let j = i + 1; j < Math.min(members.length, i + 1 + window); j++)
                consider(members[i]!, members[j]!);
          }
        }
      }
      if (maxPerItem === undefined)
        return found.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
      // Keep a pair if it is in the top k of either item: a k-nearest-neighbour graph, bounded at n * k pairs.
      const perItem = new Map<number, SimilarPair[]>();
      for (const pair of found) {
        for (const item of [pair.a, pair.b]) {
          let list = perItem.get(item);
          if (!list) {
            list = [];
            perItem.set(item, list);
          }
          list.push(pair);
        }
      }
      const kept = new Set<SimilarPair>();
      for (const list of perItem.values()) {
        list.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
        for (const pair of list.slice(0, maxPerItem)) kept.add(pair);
      }
      return [...kept].sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
    },
    neighbours(query, { k, threshold = -1, accept }) {
      const self = typeof query === "number" ? query : -1;
      let vector: ArrayLike<number>;
      let high: number;
      let low: number;
      if (typeof query === "number") {
        vector = vectors[query]!;
        high = sketches[query * 2]!;
        low = sketches[query * 2 + 1]!;
      } else {
        const normalised = Float32Array.from(query);
        let norm = 0;
        for (let d = 0; d < dimensions; d++) norm += normalised[d]! * normalised[d]!;
        norm = Math.sqrt(norm);
        if (norm > 0) for (let d = 0; d < dimensions; d++) normalised[d]! /= norm;
        vector = normalised;
        [high, low] = sketchOf(normalised);
      }
      const seen = new Set<number>();
      const found: { index: number; similarity: number }[] = [];
      for (const table of tables) {
        const key = keyOf(high, low, table.bits);
        const from = table.start[key]!;
        const to = table.start[key + 1]!;
        for (let position = from; position < to; position++) {
          const index = table.order[position]!;
          if (index === self || seen.has(index)) continue;
          seen.add(index);
          if (accept && !accept(index)) continue;
          const similarity = dot(vectors[index]!, vector);
          if (similarity >= threshold) found.push({ index, similarity });
        }
      }
      return found.sort((x, y) => y.similarity - x.similarity || x.index - y.index).slice(0, k);
    },
  };
}
