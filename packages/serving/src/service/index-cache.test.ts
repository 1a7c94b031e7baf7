import type { ExperienceIndex } from "@tfgrpo/actor";
import type { LibrarySnapshot } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createIndexCache } from "./index-cache.js";

const snapshot = (version: number): LibrarySnapshot => ({
  domain: "math",
  version,
  experiences: [],
});
const index = (tag: number) =>
  ({ size: tag, dimensions: 0, select: () => null }) as unknown as ExperienceIndex;

describe("index cache", () => {
  it("serves the stale index while a refresh loads in the background, then the fresh one", async () => {
    let clock = 0;
    let loads = 0;
    let release: () => void = () => {};
    const cache = createIndexCache({
      load: async (_domain, version) => {
        loads++;
        if (loads === 2) await new Promise<void>((resolve) => (release = resolve));
        return snapshot(version);
      },
      build: async () => index(loads),
      maxAgeMs: 100,
      // The fake clock does not move during a load: the refresh cost never lengthens the wait here.
      now: () => clock,
    });
    const [a, b] = await Promise.all([cache("math", 1), cache("math", 1)]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    clock = 150;
    // Stale: the old index answers at once, one refresh starts.
    expect(await cache("math", 1)).toBe(a);
    expect(await cache("math", 1)).toBe(a);
    expect(loads).toBe(2);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const fresh = await cache("math", 1);
    expect(fresh).not.toBe(a);
    expect(fresh!.index.size).toBe(2);
    expect(loads).toBe(2);
  });

  it("does not keep a missing version or a failed load; a failed refresh keeps the old index", async () => {
    let clock = 0;
    let fail = false;
    let exists = false;
    const cache = createIndexCache({
      load: async (_domain, version) => {
        if (fail) throw new Error("disk");
        return exists ? snapshot(version) : null;
      },
      build: async () => index(1),
      maxAgeMs: 10,
      now: () => clock,
    });
    expect(await cache("math", 2)).toBeNull();
    exists = true;
    const first = await cache("math", 2);
    expect(first).not.toBeNull();
    fail = true;
    clock = 50;
    expect(await cache("math", 2)).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache("math", 2)).toBe(first);
    await expect(cache("math", 3)).rejects.toThrow("disk");
    fail = false;
    expect(await cache("math", 3)).not.toBeNull();
  });
});

describe("index cache refresh cost", () => {
  it("waits longer between refreshes of a version that is slow to load", async () => {
    let clock = 0;
    let loads = 0;
    const cache = createIndexCache({
      load: async (_domain, version) => {
        loads++;
        clock += 1_000; // every load takes a (fake) second
        return { domain: "math", version, experiences: [] };
      },
      build: async () => ({ size: loads, dimensions: 0, select: () => null }) as unknown as ExperienceIndex,
      maxAgeMs: 5_000,
      refreshCostFactor: 20,
      now: () => clock,
    });
    await cache("math", 1);
    clock += 6_000; // past maxAge, not past 20 x 1 s
    await cache("math", 1);
    expect(loads).toBe(1);
    clock += 15_000;
    await cache("math", 1);
    expect(loads).toBe(2);
  });
});

describe("index cache bounds", () => {
  const entries = (version: number, count: number): LibrarySnapshot =>
    ({
      domain: "math",
      version,
      experiences: Array.from({ length: count }, (_, i) => ({
        id: `G${i}`,
        text: `Rule ${i} of version ${version}: check the result another way.`,
        status: "active",
      })),
    }) as unknown as LibrarySnapshot;

  it("keeps the loaded indexes under the byte bound, least recently used out first, and hits still served", async () => {
    let loads = 0;
    const dimensions = 1_536;
    const cache = createIndexCache({
      load: async (_domain, version) => {
        loads++;
        return entries(version, 1_000);
      },
      build: async (snapshot) =>
        ({ size: snapshot.experiences.length, dimensions, select: () => null }) as never,
      maxAgeMs: 60_000,
      // ~6.8 MB per version (1,000 entries x 1,536 floats and their texts): 3 fit in 21 MB.
      maxBytes: 21_000_000,
      maxVersions: 100,
    });
    for (let version = 1; version <= 40; version++) {
      expect((await cache("math", version))!.snapshot.version).toBe(version);
      // A hot version, used between the others, stays.
      expect((await cache("math", 1))!.snapshot.version).toBe(1);
      expect(cache.bytes).toBeLessThanOrEqual(21_000_000);
    }
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeGreaterThan(12_000_000);
    const before = loads;
    // Hits: no load.
    await cache("math", 1);
    await cache("math", 40);
    expect(loads).toBe(before);
    // An evicted version loads again.
    await cache("math", 2);
    expect(loads).toBe(before + 1);
    expect(cache.size).toBe(3);
  });

  it("keeps a single index larger than the bound (it is in use) and drops it for the next", async () => {
    const cache = createIndexCache({
      load: async (_domain, version) => entries(version, 100),
      build: async (snapshot) =>
        ({ size: snapshot.experiences.length, dimensions: 0, select: () => null }) as never,
      maxAgeMs: 60_000,
      maxBytes: 1_000,
    });
    expect(await cache("math", 1)).not.toBeNull();
    expect(cache.size).toBe(1);
    expect(await cache("math", 2)).not.toBeNull();
    expect(cache.size).toBe(1);
  });
});
