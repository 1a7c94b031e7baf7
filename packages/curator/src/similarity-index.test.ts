import { gaussian, seededRandom } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { hashingEmbed } from "./hashing-embedder.js";
import { createSimilarityIndex } from "./similarity-index.js";
import { syntheticLibrary } from "./testing/index.js";

function bruteForcePairs(vectors: Float32Array[], threshold: number): Set<string> {
  const pairs = new Set<string>();
  // The hashing embedder's vectors are sparse: walk the non-zeros of one side.
  const nonZero = vectors.map((vector) => [...vector.keys()].filter((d) => vector[d] !== 0));
  for (let a = 0; a < vectors.length; a++) {
    for (let b = a + 1; b < vectors.length; b++) {
      let dot = 0;
      for (const d of nonZero[a]!) dot += vectors[a]![d]! * vectors[b]![d]!;
      if (dot >= threshold) pairs.add(`${a}:${b}`);
    }
  }
  return pairs;
}

describe("createSimilarityIndex", () => {
  it("finds (almost) every near-duplicate pair a brute-force scan finds, and nothing below the threshold", () => {
    const texts = syntheticLibrary({ size: 1500, seed: 3, duplicateShare: 0.08 });
    const vectors = texts.map((text) => hashingEmbed(text));
    const index = createSimilarityIndex(vectors, { seed: 5 });
    for (const [threshold, minimumRecall] of [
      [0.9, 0.97],
      [0.75, 0.9],
    ] as const) {
      const exact = bruteForcePairs(vectors, threshold);
      const counters = { candidates: 0, compared: 0 };
      const found = index.pairs({ threshold, counters });
      expect(exact.size).toBeGreaterThan(50);
      // Blocking: far fewer exact similarities than the n(n-1)/2 a full scan computes.
      expect(counters.compared).toBeLessThan((1500 * 1499) / 2 / 10);
      for (const pair of found) {
        expect(pair.similarity).toBeGreaterThanOrEqual(threshold);
        expect(exact.has(`${pair.a}:${pair.b}`)).toBe(true);
      }
      expect(found.length / exact.size).toBeGreaterThanOrEqual(minimumRecall);
    }
  });

  it("is deterministic for a seed", () => {
    const vectors = syntheticLibrary({ size: 300, seed: 1 }).map((text) => hashingEmbed(text));
    const first = createSimilarityIndex(vectors, { seed: 9 }).pairs({ threshold: 0.8 });
    const second = createSimilarityIndex(vectors, { seed: 9 }).pairs({ threshold: 0.8 });
    expect(second).toEqual(first);
  });

  it("limits pairs to each item's k nearest with maxPerItem", () => {
    // 30 copies of one direction plus noise: every pair is similar, but each item keeps only its top 3.
    const random = gaussian(seededRandom(4));
    const base = Array.from({ length: 32 }, () => random());
    const vectors = Array.from({ length: 30 }, () => base.map((value) => value + 0.05 * random()));
    const index = createSimilarityIndex(vectors, { seed: 1 });
    const all = index.pairs({ threshold: 0.5 });
    const limited = index.pairs({ threshold: 0.5, maxPerItem: 3 });
    expect(all.length).toBe((30 * 29) / 2);
    expect(limited.length).toBeLessThanOrEqual(30 * 3);
    const degree = new Map<number, number>();
    for (const pair of limited)
      for (const item of [pair.a, pair.b]) degree.set(item, (degree.get(item) ?? 0) + 1);
    expect(Math.min(...degree.values())).toBeGreaterThanOrEqual(3);
  });

  it("applies an accept filter and answers nearest-neighbour queries for outside vectors", () => {
    const texts = [
      "When counting integers in a closed range, include both endpoints.",
      "When counting integers in a closed range, always include both endpoints.",
      "When a web page is paywalled, search for secondary citations.",
    ];
    const index = createSimilarityIndex(
      texts.map((text) => hashingEmbed(text)),
      { seed: 2 },
    );
    expect(index.pairs({ threshold: 0.8 }).map((pair) => [pair.a, pair.b])).toEqual([[0, 1]]);
    expect(index.pairs({ threshold: 0.8, accept: (a) => a !== 0 })).toEqual([]);
    const query = hashingEmbed("When counting integers in a closed range, include the endpoints.");
    const [nearest] = index.neighbours(query, { k: 1 });
    expect(nearest!.index === 0 || nearest!.index === 1).toBe(true);
    expect(index.neighbours(2, { k: 5, threshold: 0.5 })).toEqual([]);
  });

  it("refuses vectors of different dimensions, naming the vector", () => {
    expect(() =>
      createSimilarityIndex([
        [1, 0],
        [1, 0, 0],
      ]),
    ).toThrow("vector 1 has 3 dimensions, expected 2");
  });
});
