import { describe, expect, it } from "vitest";
import { createEmbeddingCache, normalize } from "./embedding-cache.js";

describe("createEmbeddingCache", () => {
  it("embeds each distinct text once and returns unit vectors in order", async () => {
    const calls: string[][] = [];
    const cache = createEmbeddingCache({
      embed: async (texts) => {
        calls.push(texts);
        return texts.map((text) => [text.length, 1]);
      },
    });
    const first = await cache.embed(["aaa", "b", "aaa"]);
    const second = await cache.embed(["b", "cc"]);
    expect(calls).toEqual([["aaa", "b"], ["cc"]]);
    expect(Array.from(first[0]!)).toEqual(Array.from(normalize([3, 1])));
    expect(first[2]).toBe(first[0]);
    expect(second[0]).toBe(first[1]);
    expect(cache.size).toBe(3);
    expect(cache.peek("cc")).toBe(second[1]);
  });

  it("shares one call between concurrent requests and batches large requests", async () => {
    const calls: string[][] = [];
    const cache = createEmbeddingCache({
      batchSize: 2,
      embed: async (texts) => {
        calls.push(texts);
        return texts.map(() => [1, 0]);
      },
    });
    await Promise.all([cache.embed(["x", "y", "z"]), cache.embed(["x", "z"])]);
    expect(calls).toEqual([["x", "y"], ["z"]]);
  });

  it("forgets a failed call so the next request retries it", async () => {
    let fail = true;
    const cache = createEmbeddingCache({
      embed: async (texts) => {
        if (fail) throw new Error("503 from embedder");
        return texts.map(() => [0, 2]);
      },
    });
    await expect(cache.embed(["q"])).rejects.toThrow(/503/);
    fail = false;
    expect(Array.from((await cache.embed(["q"]))[0]!)).toEqual([0, 1]);
  });

  it("rejects a provider answer with the wrong number of vectors", async () => {
    const cache = createEmbeddingCache({ embed: async () => [[1]] });
    await expect(cache.embed(["a", "b"])).rejects.toThrow(/1 vectors for 2 texts/);
  });

  it("evicts the least recently used texts beyond maxEntries", async () => {
    const calls: string[][] = [];
    const cache = createEmbeddingCache({
      maxEntries: 2,
      embed: async (texts) => {
        calls.push(texts);
        return texts.map(() => [1, 1]);
      },
    });
    await cache.embed(["a", "b"]);
    await cache.embed(["a"]);
    await cache.embed(["c"]);
    expect(cache.size).toBe(2);
    expect(cache.peek("b")).toBeUndefined();
    await cache.embed(["a", "c"]);
    expect(calls).toEqual([["a", "b"], ["c"]]);
  });
});

describe("createEmbeddingCache byte bound", () => {
  it("stays under maxBytes filled with 1,536-dimension vectors far past it; recent texts still hit", async () => {
    let embedded = 0;
    const cache = createEmbeddingCache({
      maxBytes: 10 * 1024 * 1024,
      embed: async (texts) => {
        embedded += texts.length;
        return texts.map((_, i) =>
          Float32Array.from({ length: 1_536 }, (_, k) => (k === i % 1_536 ? 1 : 0.01)),
        );
      },
    });
    for (let round = 0; round < 20; round++) {
      await cache.embed(Array.from({ length: 256 }, (_, i) => `task ${round}-${i}`));
      expect(cache.bytes).toBeLessThanOrEqual(10 * 1024 * 1024);
    }
    // 5,120 vectors of 6 KiB asked for; about 1,700 fit in 10 MiB.
    expect(cache.size).toBeGreaterThan(1_500);
    expect(cache.size).toBeLessThan(1_750);
    const before = embedded;
    await cache.embed(["task 19-0", "task 19-255"]);
    expect(embedded).toBe(before);
    await cache.embed(["task 0-0"]);
    expect(embedded).toBe(before + 1);
  });
});
