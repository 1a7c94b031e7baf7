import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LearnerStore } from "../learner-store.js";
import type { StoreLifecycle } from "../store.js";
import { at } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

export type LearnerTestStore = LearnerStore & StoreLifecycle;

/** The conformance suite of a `LearnerStore` backend: the per-domain lease, the learner's state and the pause flag. */
export function learnerStoreContractTests(name: string, createFresh: () => Promise<LearnerTestStore>): void {
  describe(`learner store contract: ${name}`, () => {
    let store: LearnerTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });

    const a = { holder: "learner-a", host: "host-a", pid: 101, ttlMs: 15_000 };
    const b = { holder: "learner-b", host: "host-b", pid: 202, ttlMs: 15_000 };

    it("hands the lease to one holder at a time, and to another once it runs out or is released", async () => {
      expect(await store.getLearner("math")).toBeNull();
      const first = await store.acquireLearnerLease("math", { ...a, now: at(0) });
      expect(first).toMatchObject({ acquired: true, previous: null });
      expect(first.lease).toMatchObject({ holder: "learner-a", host: "host-a", pid: 101 });
      expect(first.lease?.expiresAt).toBe(new Date(at(0).getTime() + 15_000).toISOString());
      // Held: the other learner waits; the holder itself may take it again.
      const refused = await store.acquireLearnerLease("math", {
        ...b,
        now: new Date(at(0).getTime() + 10_000),
      });
      expect(refused).toMatchObject({ acquired: false, lease: { holder: "learner-a" } });
      expect((await store.acquireLearnerLease("math", { ...a, now: at(0) })).acquired).toBe(true);
      // Renewed at 10 s, it still holds at 20 s.
      expect(
        await store.renewLearnerLease("math", "learner-a", 15_000, new Date(at(0).getTime() + 10_000)),
      ).toBe(true);
      expect(
        (await store.acquireLearnerLease("math", { ...b, now: new Date(at(0).getTime() + 20_000) })).acquired,
      ).toBe(false);
      // Run out (no renewal for 15 s): the other learner takes it over and sees who held it.
      const takeover = await store.acquireLearnerLease("math", {
        ...b,
        now: new Date(at(0).getTime() + 26_000),
      });
      expect(takeover).toMatchObject({
        acquired: true,
        lease: { holder: "learner-b", pid: 202 },
        previous: { holder: "learner-a", pid: 101 },
      });
      // The old holder can no longer renew, nor write state.
      expect(await store.renewLearnerLease("math", "learner-a", 15_000, at(1))).toBe(false);
      await expectTfgrpoError(store.saveLearnerState("math", "learner-a", { cursor: 9 }), "conflict");
      // Released, it is free at once.
      await store.releaseLearnerLease("math", "learner-b", at(1));
      expect((await store.acquireLearnerLease("math", { ...a, now: at(1) })).acquired).toBe(true);
      // Domains are independent.
      expect((await store.acquireLearnerLease("code", { ...b, now: at(1) })).acquired).toBe(true);
      expect((await store.listLearners()).map((learner) => learner.domain)).toEqual(["code", "math"]);
    });

    it("keeps the holder's state and the operator's pause flag apart", async () => {
      await expectTfgrpoError(store.saveLearnerState("math", "learner-a", { cursor: 1 }), "conflict");
      const paused = await store.setLearnerPaused("math", true, at(2));
      expect(paused).toMatchObject({
        domain: "math",
        paused: true,
        pausedAt: at(2).toISOString(),
        state: null,
      });
      await store.acquireLearnerLease("math", { ...a, now: at(3) });
      const state = { cursor: 42, canary: { version: 3, parent: 2, share: 0.3 }, window: [true, false] };
      await store.saveLearnerState("math", "learner-a", state, at(3));
      const record = await store.getLearner("math");
      expect(record).toMatchObject({ paused: true, state, stateUpdatedAt: at(3).toISOString() });
      expect((await store.setLearnerPaused("math", false, at(4))).paused).toBe(false);
      expect((await store.getLearner("math"))?.state).toEqual(state);
    });
  });
}
