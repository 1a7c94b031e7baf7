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
