import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClientStore } from "../client-store.js";
import type { LibraryStore } from "../library-store.js";
import type { OutcomeStore } from "../outcome-store.js";
import type { StoreLifecycle } from "../store.js";
import { at, seedThreeEntries } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

export type ClientTestStore = ClientStore & OutcomeStore & LibraryStore & StoreLifecycle;

/**
 * The conformance suite of a `ClientStore` backend: the client of each selection and outcome is stored and read
 * back, counts per client, and an excluded client's outcomes left out of `listOutcomes` (the learner's read) until
 * it is included again.
 */
export function clientStoreContractTests(name: string, createFresh: () => Promise<ClientTestStore>): void {
  describe(`client store contract: ${name}`, () => {
    let store: ClientTestStore;
    beforeEach(async () => {
      store = await createFresh();
      await seedThreeEntries(store);
    });
    afterEach(async () => {
      await store.close();
    });

    /** A selection served to `client` (undefined: anonymous), reported by `reporter` (default: nobody named). */
    const serve = async (id: string, client: string | undefined, success: boolean, reporter?: string) => {
      await store.recordSelection({
        selectionId: id,
        domain: "math",
        version: 1,
        entryIds: ["G0"],
        explorationIds: [],
        task: `task ${id}`,
        servedAt: at(1).toISOString(),
        ...(client ? { client } : {}),
      });
      return store.reportOutcome(
        { selectionId: id, reward: success ? 1 : 0, success, ...(reporter ? { client: reporter } : {}) },
        { now: at(2) },
      );
    };

    it("stores each selection's and outcome's client, the reporter's first", async () => {
      expect(await serve("a1", "alice", true)).toMatchObject({ selectionId: "a1", client: "alice" });
      expect(await serve("b1", "bob", false, "bob-2")).toMatchObject({ client: "bob-2" });
      const anonymous = await serve("n1", undefined, true);
      expect(anonymous.client).toBeUndefined();
      expect((await store.getSelection("a1"))!.selection.client).toBe("alice");
      expect((await store.getSelection("b1"))!.outcome!.client).toBe("bob-2");
      const listed = await store.listOutcomes({ domain: "math" });
      expect(listed.map((o) => [o.selectionId, o.client ?? null])).toEqual([
        ["a1", "alice"],
        ["b1", "bob-2"],
        ["n1", null],
      ]);
    });

    it("counts selections, outcomes and successes per client, anonymous first", async () => {
      await serve("a1", "alice", true);
      await serve("a2", "alice", false);
      await serve("a3", "alice", true);
      await serve("b1", "bob", false);
      await serve("n1", undefined, true);
      await store.recordSelection({
        selectionId: "b2",
        domain: "math",
        version: 1,
        entryIds: [],
        explorationIds: [],
        task: "never reported",
        servedAt: at(1).toISOString(),
        client: "bob",
      });
      const clients = await store.listClients("math");
      expect(clients).toEqual([
        {
          client: null,
          selections: 1,
          outcomes: 1,
          successes: 1,
          successRate: 1,
          excludedAt: null,
          reason: null,
        },
        {
          client: "alice",
          selections: 3,
          outcomes: 3,
          successes: 2,
          successRate: 2 / 3,
          excludedAt: null,
          reason: null,
        },
        {
          client: "bob",
          selections: 2,
          outcomes: 1,
          successes: 0,
          successRate: 0,
          excludedAt: null,
          reason: null,
        },
      ]);
      expect(await store.listClients("other")).toEqual([]);
    });

    it("leaves an excluded client's outcomes out of listOutcomes until it is included again", async () => {
      await serve("a1", "alice", true);
      await serve("m1", "mallory", true);
      await serve("n1", undefined, false);
      await serve("m2", "mallory", true);
      await store.setClientExcluded("math", "mallory", true, { reason: "planted rewards", now: at(5) });
      await store.setClientExcluded("math", "mallory", true, { reason: "again", now: at(6) });
      expect((await store.listOutcomes({ domain: "math" })).map((o) => o.selectionId)).toEqual(["a1", "n1"]);
      // The cursor read a learner makes skips them too; the operator can still see everything.
      expect((await store.listOutcomes({ domain: "math", after: 1 })).map((o) => o.selectionId)).toEqual([
        "n1",
      ]);
      expect((await store.listOutcomes({ domain: "math", latest: 2 })).map((o) => o.selectionId)).toEqual([
        "a1",
        "n1",
      ]);
      expect(
        (await store.listOutcomes({ domain: "math", includeExcluded: true })).map((o) => o.selectionId),
      ).toEqual(["a1", "m1", "n1", "m2"]);
      // Excluded in one domain only.
      const mallory = (await store.listClients("math")).find((c) => c.client === "mallory")!;
      expect(mallory).toMatchObject({
        outcomes: 2,
        excludedAt: at(5).toISOString(),
        reason: "planted rewards",
      });
      await store.setClientExcluded("math", "mallory", false);
      expect((await store.listOutcomes({ domain: "math" })).map((o) => o.selectionId)).toEqual([
        "a1",
        "m1",
        "n1",
        "m2",
      ]);
      expect((await store.listClients("math")).find((c) => c.client === "mallory")!.excludedAt).toBeNull();
    });

    it("lists an excluded client that has no traffic yet, and refuses a bad client name", async () => {
      await store.setClientExcluded("math", "eve", true, { now: at(1) });
      expect(await store.listClients("math")).toEqual([
        expect.objectContaining({ client: "eve", selections: 0, outcomes: 0, successRate: null }),
      ]);
      await expectTfgrpoError(store.setClientExcluded("math", "no spaces", true), "invalid_input");
      await expectTfgrpoError(
        store.recordSelection({
          selectionId: "x",
          domain: "math",
          version: null,
          entryIds: [],
          explorationIds: [],
          task: "t",
          servedAt: at(1).toISOString(),
          client: "bad name!",
        }),
        "invalid_input",
      );
    });
  });
}
