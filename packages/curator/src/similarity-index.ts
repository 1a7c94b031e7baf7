import { gaussian, seededRandom, TfgrpoError } from "@tfgrpo/protocol";

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
  /** Filled with the work done: candidate pairs seen in buckets, and exact similarities computed. */
  counters?: { candidates: number; compared: number };
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

/** Bits of the centered sketch that buckets and orders vectors. */
const SKETCH_BITS = 64;
/** Bits of the plain sketch whose Hamming distance filters candidates (more bits: a tighter angle estimate). */
const FILTER_BITS = 128;
const PROJECTIONS = Math.max(SKETCH_BITS, FILTER_BITS);

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

  // Sparse vectors (the hashing embedder's) keep the list of their non-zero dimensions: dot products and sketches
  // then cost their non-zeros, not the full dimension.
  const nonZero: (Uint32Array | null)[] = vectors.map((vector) => {
    let count = 0;
    for (let d = 0; d < dimensions; d++) if (vector[d] !== 0) count++;
    if (count * 4 > dimensions) return null;
    const list = new Uint32Array(count);
    let at = 0;
    for (let d = 0; d < dimensions; d++) if (vector[d] !== 0) list[at++] = d;
    return list;
  });

  const random = seededRandom(options.seed ?? 17);
  const normal = gaussian(random);
  // Transposed (dimension-major) so sketching a vector walks its non-zero entries once.
  const planes = new Float32Array(dimensions * PROJECTIONS);
  for (let index = 0; index < planes.length; index++) planes[index] = normal();

  const project = (vector: ArrayLike<number>, list: Uint32Array | null, into: Float64Array) => {
    into.fill(0);
    const count = list ? list.length : dimensions;
    for (let at = 0; at < count; at++) {
      const d = list ? list[at]! : at;
      const value = vector[d]!;
      if (value === 0) continue;
      const base = d * PROJECTIONS;
      for (let bit = 0; bit < PROJECTIONS; bit++) into[bit]! += value * planes[base + bit]!;
    }
  };
  // Embeddings share a common direction (real embedding models are far from isotropic: unrelated sentences often
  // have cosine 0.7), which would put most vectors in a few buckets. Buckets therefore use the sketch of the vector
  // minus the mean (projections are linear: P(v - m) = Pv - Pm, so it costs nothing extra), while the Hamming filter
  // uses the plain sketch, whose distance estimates the plain cosine the threshold is about.
  const meanProjection = new Float64Array(PROJECTIONS);
  const projection = new Float64Array(PROJECTIONS);
  const FILTER_WORDS = FILTER_BITS / 32;
  const plain = new Uint32Array(size * FILTER_WORDS);
  const centered = new Uint32Array(size * 2);
  /** Signs of `bits` projections (minus an offset) packed into 32-bit words at target[at * words...]. */
  const packInto = (
    target: Uint32Array,
    at: number,
    values: Float64Array,
    offset: Float64Array | null,
    bits: number,
  ) => {
    const words = bits / 32;
    for (let word = 0; word < words; word++) {
      let packed = 0;
      for (let bit = 0; bit < 32; bit++) {
        const projected = values[word * 32 + bit]! - (offset ? offset[word * 32 + bit]! : 0);
        if (projected > 0) packed |= 1 << bit;
      }
      target[at * words + word] = packed >>> 0;
    }
  };
  const projections = new Float64Array(size * PROJECTIONS);
  vectors.forEach((vector, index) => {
    project(vector, nonZero[index]!, projection);
    projections.set(projection, index * PROJECTIONS);
    for (let bit = 0; bit < PROJECTIONS; bit++) meanProjection[bit]! += projection[bit]! / size;
  });
  for (let index = 0; index < size; index++) {
    const values = projections.subarray(index * PROJECTIONS, (index + 1) * PROJECTIONS);
    packInto(plain, index, values, null, FILTER_BITS);
    packInto(centered, index, values, meanProjection, SKETCH_BITS);
  }

  const tableCount = options.tables ?? 24;
  const bitsPerTable =
    options.bitsPerTable ?? Math.min(16, Math.max(4, Math.ceil(Math.log2(Math.max(size, 1) / 32))));
  const maxBucket = options.maxBucket ?? 64;
  const window = options.window ?? 16;
  /** A sketch source: packed words per item (2 for the centered sketch, 4 for the plain one, of which 64 bits used). */
  type Source = { words: Uint32Array; stride: number };
  const sources: Source[] = [
    { words: centered, stride: 2 },
    { words: plain, stride: FILTER_WORDS },
  ];
  const bitOf = (source: Source, at: number, bit: number) =>
    (source.words[at * source.stride + (bit >>> 5)]! >>> (bit & 31)) & 1;
  /** Bits `from..to` (at most 52) of a sketch in a table's bit order, as a number. */
  const bitsAsNumber = (source: Source, at: number, permutation: Uint8Array, from: number, to: number) => {
    let key = 0;
    for (let position = from; position < to; position++)
      key = key * 2 + bitOf(source, at, permutation[position]!);
    return key;
  };
  const sortBits = Math.min(SKETCH_BITS, bitsPerTable + 52);
  // Each table: a random order of 64 sketch bits; the first bits form the bucket key, the next ones the sort key
  // inside a bucket, so a crowded bucket is compared only between neighbours in that order (which share long
  // prefixes). Tables alternate between the centered sketch (spreads a library whose entries all look alike) and the
  // plain one (keeps a tight cluster together, where centering leaves only noise). Members are grouped by key with a
  // counting sort (bucket k is order[start[k]..start[k+1]]), then each crowded bucket is sorted.
  const tables = Array.from({ length: tableCount }, (_, tableIndex) => {
    const source = sources[tableIndex % 2]!;
    const positions = Array.from({ length: SKETCH_BITS }, (_, index) => index);
    for (let index = positions.length - 1; index > 0; index--) {
      const swap = Math.floor(random() * (index + 1));
      [positions[index], positions[swap]] = [positions[swap]!, positions[index]!];
    }
    const permutation = Uint8Array.from(positions);
    const buckets = 1 << bitsPerTable;
    const keys = new Uint32Array(size);
    const start = new Uint32Array(buckets + 1);
    for (let index = 0; index < size; index++) {
      const key = bitsAsNumber(source, index, permutation, 0, bitsPerTable);
      keys[index] = key;
      start[key + 1]!++;
    }
    for (let key = 0; key < buckets; key++) start[key + 1]! += start[key]!;
    const fill = start.slice(0, buckets);
    const order = new Uint32Array(size);
    for (let index = 0; index < size; index++) order[fill[keys[index]!]!++] = index;
    const sortKeys = new Float64Array(size);
    for (let key = 0; key < buckets; key++) {
      const from = start[key]!;
      const to = start[key + 1]!;
      if (to - from <= maxBucket) continue;
      for (let position = from; position < to; position++) {
        const index = order[position]!;
        sortKeys[index] = bitsAsNumber(source, index, permutation, bitsPerTable, sortBits);
      }
      order.subarray(from, to).sort((x, y) => sortKeys[x]! - sortKeys[y]! || x - y);
    }
    const placeOf = new Uint32Array(size);
    for (let position = 0; position < size; position++) placeOf[order[position]!] = position;
    return { source: tableIndex % 2, permutation, start, order, sortKeys, keys, positions: placeOf };
  });

  const dotWith = (a: number, b: ArrayLike<number>) => {
    const vector = vectors[a]!;
    const list = nonZero[a];
    let sum = 0;
    if (list) for (let at = 0; at < list.length; at++) sum += vector[list[at]!]! * b[list[at]!]!;
    else for (let d = 0; d < dimensions; d++) sum += vector[d]! * b[d]!;
    return sum;
  };
  const dot = (a: number, b: number) => {
    const listA = nonZero[a];
    const listB = nonZero[b];
    if (listA && (!listB || listA.length <= listB.length)) return dotWith(a, vectors[b]!);
    return dotWith(b, vectors[a]!);
  };
  const hamming = (a: number, b: number) => {
    let distance = 0;
    for (let word = 0; word < FILTER_WORDS; word++)
      distance += popcount(plain[a * FILTER_WORDS + word]! ^ plain[b * FILTER_WORDS + word]!);
    return distance;
  };
  /**
   * Hamming distance above which a pair is very likely less similar than the threshold: the expected distance at
   * the threshold angle plus 2 standard deviations, so a pair exactly at the threshold passes 98% of the time and a
   * more similar one almost always.
   */
  const maxHamming = (threshold: number) => {
    const angle = Math.acos(Math.min(1, Math.max(-1, threshold))) / Math.PI;
    return Math.ceil(FILTER_BITS * angle + 2 * Math.sqrt(FILTER_BITS * angle * (1 - angle)));
  };

  const visited = new Int32Array(size);
  let queryStamp = 0;

  return {
    size,
    dimensions,
    similarity: (a, b) => dot(a, b),
    pairs({ threshold, accept, maxPerItem, counters }) {
      const limit = maxHamming(threshold);
      let candidates = 0;
      let compared = 0;
      const found: SimilarPair[] = [];
      // With maxPerItem, each item keeps its k best partners (similarities in descending order); once an item's list
      // is full, a pair is skipped unless its Hamming distance could beat the k-th best of one of its two items.
      const k = maxPerItem ?? 0;
      const best = new Float64Array(size * k).fill(Number.NEGATIVE_INFINITY);
      const partner = new Int32Array(size * k).fill(-1);
      const limits = Array.from({ length: 101 }, (_, step) => maxHamming(Math.max(threshold, step / 100)));
      const limitOf = (item: number) => {
        const kth = best[item * k + k - 1]!;
        return kth === Number.NEGATIVE_INFINITY ? limit : limits[Math.max(0, Math.floor(kth * 100))]!;
      };
      const keep = (item: number, other: number, similarity: number) => {
        const base = item * k;
        if (similarity <= best[base + k - 1]!) return;
        let at = k - 1;
        while (at > 0 && best[base + at - 1]! < similarity) {
          best[base + at] = best[base + at - 1]!;
          partner[base + at] = partner[base + at - 1]!;
          at--;
        }
        best[base + at] = similarity;
        partner[base + at] = other;
      };
      // marks[j] === i: j was already seen as a partner of i (dedupe across tables without a Set of pairs).
      const marks = new Int32Array(size).fill(-1);
      // Each pair is examined once per table, from its smaller index: all of a small bucket, or a window around the
      // item in a crowded (sorted) bucket.
      for (let i = 0; i < size; i++) {
        for (const table of tables) {
          const key = table.keys[i]!;
          let from = table.start[key]!;
          let to = table.start[key + 1]!;
          if (to - from > maxBucket) {
            const position = table.positions[i]!;
            from = Math.max(from, position - window);
            to = Math.min(to, position + window + 1);
          }
          for (let position = from; position < to; position++) {
            const j = table.order[position]!;
            if (j <= i) continue;
            candidates++;
            if (marks[j] === i) continue;
            marks[j] = i;
            const distance = hamming(i, j);
            if (distance > (k > 0 ? Math.max(limitOf(i), limitOf(j)) : limit)) continue;
            if (accept && !accept(i, j)) continue;
            compared++;
            const similarity = dot(i, j);
            if (similarity < threshold) continue;
            if (k > 0) {
              keep(i, j, similarity);
              keep(j, i, similarity);
            } else found.push({ a: i, b: j, similarity });
          }
        }
      }
      if (counters) {
        counters.candidates = candidates;
        counters.compared = compared;
      }
      if (k > 0) {
        // A k-nearest-neighbour graph: a pair is kept if it is in the top k of either item (at most n * k pairs).
        const seen = new Set<number>();
        for (let item = 0; item < size; item++) {
          for (let at = 0; at < k; at++) {
            const other = partner[item * k + at]!;
            if (other < 0) break;
            const a = Math.min(item, other);
            const b = Math.max(item, other);
            if (seen.has(a * size + b)) continue;
            seen.add(a * size + b);
            found.push({ a, b, similarity: best[item * k + at]! });
          }
        }
      }
      return found.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
    },
    neighbours(query, { k, threshold = -1, accept }) {
      if (k <= 0 || size === 0) return [];
      const self = typeof query === "number" ? query : -1;
      let vector: ArrayLike<number>;
      let querySources = sources;
      let at = 0;
      if (typeof query === "number") {
        vector = vectors[query]!;
        at = query;
      } else {
        const normalised = Float32Array.from(query);
        let norm = 0;
        for (let d = 0; d < dimensions; d++) norm += normalised[d]! * normalised[d]!;
        norm = Math.sqrt(norm);
        if (norm > 0) for (let d = 0; d < dimensions; d++) normalised[d]! /= norm;
        vector = normalised;
        const values = new Float64Array(PROJECTIONS);
        project(normalised, null, values);
        const queryCentered = new Uint32Array(2);
        const queryPlain = new Uint32Array(FILTER_WORDS);
        packInto(queryCentered, 0, values, meanProjection, SKETCH_BITS);
        packInto(queryPlain, 0, values, null, FILTER_BITS);
        querySources = [
          { words: queryCentered, stride: 2 },
          { words: queryPlain, stride: FILTER_WORDS },
        ];
      }
      // visited[index] === stamp: already visited in this query (no Set to allocate per query).
      const stamp = ++queryStamp;
      // The k best so far, most similar first (k is small: insertion beats sorting every visited item).
      const found: { index: number; similarity: number }[] = [];
      const visit = (index: number) => {
        if (index === self || visited[index] === stamp) return;
        visited[index] = stamp;
        if (accept && !accept(index)) return;
        const similarity = dotWith(index, vector);
        if (similarity < threshold) return;
        if (found.length === k && similarity <= found[k - 1]!.similarity) return;
        let at = found.length < k ? found.length : k - 1;
        if (found.length < k) found.push({ index, similarity });
        while (
          at > 0 &&
          (found[at - 1]!.similarity < similarity ||
            (found[at - 1]!.similarity === similarity && found[at - 1]!.index > index))
        ) {
          found[at] = found[at - 1]!;
          at--;
        }
        found[at] = { index, similarity };
      };
      for (const table of tables) {
        const sketch = querySources[table.source]!;
        const key = bitsAsNumber(sketch, at, table.permutation, 0, bitsPerTable);
        const from = table.start[key]!;
        const to = table.start[key + 1]!;
        if (to - from <= maxBucket) {
          for (let position = from; position < to; position++) visit(table.order[position]!);
          continue;
        }
        // Crowded bucket: binary search the query's place in the bucket's order and visit a window around it.
        const target = bitsAsNumber(sketch, at, table.permutation, bitsPerTable, sortBits);
        let low = from;
        let high = to;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (table.sortKeys[table.order[middle]!]! < target) low = middle + 1;
          else high = middle;
        }
        for (let position = Math.max(from, low - window); position < Math.min(to, low + window); position++)
          visit(table.order[position]!);
      }
      return found;
    },
  };
}
