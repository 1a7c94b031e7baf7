import { createInProcessBus, type LibrarySnapshot, libraryGet } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createBusLibraryLoader, createLibraryCache } from "./library-cache.js";
import { realExperiences } from "./testing/index.js";

const snapshot = (version: number): LibrarySnapshot => ({
  domain: "math",
  version,
  experiences: realExperiences("math").slice(0, 2),
});

describe("createLibraryCache", () => {
  it("loads each version once, sharing concurrent loads", async () => {
    const loads: string[] = [];
    const cached = createLibraryCache(async (domain, version) => {
      loads.push(`${domain}@${version}`);
      return snapshot(version);
    });
    const [a, b] = await Promise.all([cached("math", 1), cached("math", 1)]);
    await cached("math", 2);
    await cached("math", 1);
    expect(a).toBe(b);
    expect(loads).toEqual(["math@1", "math@2"]);
  });

  it("does not keep failures or missing versions", async () => {
    let calls = 0;
    const cached = createLibraryCache(async (_domain, version) => {
      calls++;
      if (calls === 1) throw new Error("bus timeout");
      return calls === 2 ? null : snapshot(version);
    });
    await expect(cached("math", 3)).rejects.toThrow(/bus timeout/);
    expect(await cached("math", 3)).toBeNull();
    expect((await cached("math", 3))?.version).toBe(3);
    expect(calls).toBe(3);
  });

  it("evicts the least recently used version beyond its size", async () => {
    const loads: number[] = [];
    const cached = createLibraryCache(
      async (_domain, version) => {
        loads.push(version);
        return snapshot(version);
      },
      { maxVersions: 2 },
    );
    await cached("math", 1);
    await cached("math", 2);
    await cached("math", 1);
    await cached("math", 3);
    await cached("math", 1);
    await cached("math", 2);
    expect(loads).toEqual([1, 2, 3, 2]);
  });
});

it("reloads a snapshot after maxAgeMs, so updated stats reach retrieval", async () => {
  let clock = 0;
  let loads = 0;
  const cached = createLibraryCache(
    async (_domain, version) => {
      loads++;
      return snapshot(version);
    },
    { maxAgeMs: 1000, now: () => clock },
  );
  await cached("math", 1);
  clock = 999;
  await cached("math", 1);
  expect(loads).toBe(1);
  clock = 1000;
  await cached("math", 1);
  expect(loads).toBe(2);
});

describe("createBusLibraryLoader", () => {
  it("reads a version through tfgrpo.library.get", async () => {
    const bus = createInProcessBus();
    await bus.handle(libraryGet, async ({ domain, version }) =>
      domain === "math" && version === 4 ? snapshot(4) : null,
    );
    const load = createBusLibraryLoader(bus);
    expect((await load("math", 4))?.experiences.map((entry) => entry.id)).toEqual(["G0", "G1"]);
    expect(await load("math", 5)).toBeNull();
    await bus.close();
  });
});

it("keys snapshots by stats revision: a new revision reloads, the same one never expires", async () => {
  let clock = 0;
  const loads: string[] = [];
  const cached = createLibraryCache(
    async (domain, version) => {
      loads.push(`${domain}@${version}`);
      return snapshot(version);
    },
    { maxAgeMs: 10, now: () => clock },
  );
  await cached("math", 1, "run/c0");
  clock = 1000;
  await cached("math", 1, "run/c0");
  expect(loads).toHaveLength(1);
  await cached("math", 1, "run/c1");
  expect(loads).toHaveLength(2);
});
