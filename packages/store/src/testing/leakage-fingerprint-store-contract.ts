import type { LeakageFingerprints } from "@tfgrpo/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LeakageFingerprintStore } from "../leakage-fingerprint-store.js";
import type { StoreLifecycle } from "../store.js";
import { expectTfgrpoError } from "./fixtures.js";

export type LeakageFingerprintTestStore = LeakageFingerprintStore & StoreLifecycle;

/** The conformance suite of a `LeakageFingerprintStore` backend: content-addressed sets, written once. */
export function leakageFingerprintStoreContractTests(
  name: string,
  createFresh: () => Promise<LeakageFingerprintTestStore>,
): void {
  describe(`leakage fingerprint store contract: ${name}`, () => {
    let store: LeakageFingerprintTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });

    const set: LeakageFingerprints = {
      tasks: [
        { id: "t1", answer: "540", constants: ["75", "117"], words: "find the largest real part" },
        { id: "t2", constants: [], words: "" },
      ],
    };

    it("stores a set under its digest once, and reads it back exactly", async () => {
      const digest = await store.putLeakageFingerprints(set);
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
      expect(await store.putLeakageFingerprints(set)).toBe(digest);
      expect(await store.getLeakageFingerprints(digest)).toEqual(set);
      const other = await store.putLeakageFingerprints({ tasks: [set.tasks[1]!, set.tasks[0]!] });
      // Task order is part of a set (it decides which task a refusal names): another order, another set.
      expect(other).not.toBe(digest);
      expect((await store.getLeakageFingerprints(other))?.tasks.map((task) => task.id)).toEqual(["t2", "t1"]);
      expect(await store.getLeakageFingerprints("0".repeat(64))).toBeNull();
    });

    it("refuses a malformed set", async () => {
      await expectTfgrpoError(
        store.putLeakageFingerprints({ tasks: [{ id: "t1" }] } as unknown as LeakageFingerprints),
        "invalid_input",
      );
    });
  });
}
