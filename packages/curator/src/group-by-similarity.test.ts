import { describe, expect, it } from "vitest";
import { groupBySimilarity } from "./group-by-similarity.js";
import { splitBySimilarity } from "./split-by-similarity.js";

/** A unit vector at `degrees` in the plane, padded to 4 dimensions. */
const at = (degrees: number) => {
  const radians = (degrees * Math.PI) / 180;
  return [Math.cos(radians), Math.sin(radians), 0, 0];
};

describe("groupBySimilarity", () => {
  it("groups by meaning whatever the order, and does not chain loose links into one topic", () => {
    // Two tight topics (0-10 degrees and 90-100 degrees) interleaved, and a chain 0, 50, 100 of loose links.
    const vectors = [at(0), at(95), at(5), at(100), at(10), at(90)];
    const { groups } = groupBySimilarity(vectors, { threshold: 0.9 });
    expect(groups).toEqual([
      [0, 2, 4],
      [1, 3, 5],
    ]);
    // cos(50 degrees) = 0.64: a middle item links to both topics, but the topics' average stays below cohesion.
    const chain = groupBySimilarity([at(0), at(5), at(50), at(95), at(100)], {
      threshold: 0.6,
      cohesion: 0.6,
    });
    expect(chain.groups.length).toBeGreaterThanOrEqual(2);
    expect(chain.groups.some((group) => group.includes(0) && group.includes(4))).toBe(false);
  });

  it("keeps items with one key together even when they are not similar", () => {
    const { groups } = groupBySimilarity([at(0), at(90), at(180)], {
      threshold: 0.9,
      keyOf: (index) => (index === 1 ? undefined : "G3"),
    });
    expect(groups).toEqual([[0, 2], [1]]);
  });

  it("gives the same groups from the exact scan and from the index on a large input", () => {
    const vectors = Array.from({ length: 300 }, (_, index) => {
      const topic = index % 10;
      const [x, y] = at(topic * 36 + (index % 3));
      return [x, y, topic % 2 ? 0.1 : -0.1, 0];
    });
    const exact = groupBySimilarity(vectors, { threshold: 0.95 }).groups;
    const indexed = groupBySimilarity(vectors, { threshold: 0.95, exactUpTo: 0 }).groups;
    expect(exact).toHaveLength(10);
    expect(indexed).toEqual(exact);
  });
});

describe("splitBySimilarity", () => {
  it("splits an oversized group into pieces within the capacity, most similar members together", () => {
    const vectors = [at(0), at(60), at(3), at(63), at(6), at(66)];
    const similarity = (a: number, b: number) =>
      vectors[a]![0]! * vectors[b]![0]! + vectors[a]![1]! * vectors[b]![1]!;
    const pieces = splitBySimilarity([0, 1, 2, 3, 4, 5], { similarity, cost: () => 10, capacity: 30 });
    expect(pieces.map((piece) => [...piece].sort())).toEqual(
      expect.arrayContaining([
        [0, 2, 4],
        [1, 3, 5],
      ]),
    );
    expect(splitBySimilarity([0, 1, 2], { similarity, cost: () => 10, capacity: 30 })).toEqual([[0, 1, 2]]);
  });
});
