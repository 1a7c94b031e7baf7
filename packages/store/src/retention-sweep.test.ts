import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore } from "./create-store.js";
import { retentionSettingsFromEnv, startRetentionSweep } from "./retention-sweep.js";
import type { Store } from "./store.js";
import { expectTfgrpoError } from "./testing/fixtures.js";

describe("retention sweep", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore(":memory:");
  });
  afterEach(async () => {
    await store.close();
  });

  it("marks selections past the deadline on its interval and stops cleanly", async () => {
    const t0 = new Date("2026-02-01T00:00:00.000Z");
    let clock = t0;
    for (let i = 0; i < 5; i++) {
      await store.recordSelection({
        selectionId: `s${i}`,
        domain: "math",
        version: null,
        entryIds: [],
        explorationIds: [],
        task: `task ${i}`,
        servedAt: new Date(t0.getTime() + i * 60_000).toISOString(),
      });
    }
    const results: number[] = [];
    const sweep = startRetentionSweep(store, {
      policy: { reportDeadlineMs: 10 * 60_000 },
      expireEveryMs: 5,
      intervalMs: 20,
      now: () => clock,
      onResult: (result) => results.push(result.expired),
    });
    clock = new Date(t0.getTime() + 12.5 * 60_000); // s0..s2 past the 10 min deadline
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await store.outcomeStats("math", { now: clock, reportDeadlineMs: 10 * 60_000 })).noReport).toBe(
      3,
    );
    // Marked, not only counted: a report without a deadline is refused.
    await expectTfgrpoError(store.reportOutcome({ selectionId: "s1", reward: 1, success: true }), "conflict");
    await store.reportOutcome({ selectionId: "s4", reward: 1, success: true });
    await sweep.stop();
    expect(results.length).toBeGreaterThan(0);
    const once = await sweep.runOnce();
    expect(once.expired).toBe(0);
  });

  it("reads its settings from TFGRPO_RETENTION, refusing unknown or bad ones", () => {
    expect(retentionSettingsFromEnv({})).toEqual({ enabled: true, policy: {} });
    expect(retentionSettingsFromEnv({ TFGRPO_RETENTION: "off" }).enabled).toBe(false);
    expect(
      retentionSettingsFromEnv({ TFGRPO_RETENTION: '{"outcomeMaxAgeDays": 7, "intervalMs": 1000}' }),
    ).toEqual({ enabled: true, policy: { outcomeMaxAgeDays: 7 }, intervalMs: 1000 });
    expect(() => retentionSettingsFromEnv({ TFGRPO_RETENTION: '{"maxDays": 7}' })).toThrow(
      /unknown setting maxDays/,
    );
    expect(() => retentionSettingsFromEnv({ TFGRPO_RETENTION: '{"batchSize": -1}' })).toThrow(/batchSize/);
    expect(() => retentionSettingsFromEnv({ TFGRPO_RETENTION: "soon" })).toThrow(/JSON object/);
  });
});
