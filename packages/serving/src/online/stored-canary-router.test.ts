import type { LearnerRecord } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { createStoredCanaryRouter } from "./stored-canary-router.js";

/** A learner row whose state holds a canary (only what the router reads). */
function record(canary: { version: number; parent: number | null; share: number } | null): LearnerRecord {
  return {
    domain: "math",
    lease: null,
    state: { format: 1, canary },
    stateUpdatedAt: null,
    paused: false,
    pausedAt: null,
  };
}

describe("the stored canary router", () => {
  it("routes the stored share of traffic to the canary, reads the store at most once per cache period", async () => {
    let reads = 0;
    let current = record({ version: 3, parent: 2, share: 0.25 });
    let clock = 0;
    const draws = [0.1, 0.9, 0.2, 0.3, 0.5, 0.05, 0.24, 0.26];
    let next = 0;
    const route = createStoredCanaryRouter(
      {
        getLearner: async () => {
          reads++;
          return current;
        },
      },
      { cacheMs: 1000, random: () => draws[next++ % draws.length]!, now: () => clock },
    );
    const routed = [];
    for (let i = 0; i < draws.length; i++) routed.push(await route({ domain: "math", task: "t", head: 2 }));
    expect(routed.map((r) => r?.version ?? null)).toEqual([3, null, 3, null, null, 3, 3, null]);
    expect(routed[0]).toEqual({ version: 3, meta: { arm: "canary" } });
    expect(reads).toBe(1);
    // Settled in the store: after the cache period every request goes to the head.
    current = record(null);
    expect(await route({ domain: "math", task: "t", head: 2 })).not.toBeNull();
    clock = 1000;
    expect(await route({ domain: "math", task: "t", head: 2 })).toBeNull();
    expect(reads).toBe(2);
    // A canary whose parent is no longer the head is not served.
    current = record({ version: 5, parent: 4, share: 1 });
    clock = 2000;
    expect(await route({ domain: "math", task: "t", head: 6 })).toBeNull();
    expect(await route({ domain: "math", task: "t", head: 4 })).toEqual({
      version: 5,
      meta: { arm: "canary" },
    });
    // No learner row at all: the head.
    const none = createStoredCanaryRouter({ getLearner: async () => null });
    expect(await none({ domain: "code", task: "t", head: 1 })).toBeNull();
  });
});
