import type { Operation } from "@tfgrpo/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { add, at, type LibraryTestStore, seedThreeEntries } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

/** Applying operation sets: what each operation does, and how a bad set is refused whole. */
export function libraryOperationsContract(createFresh: () => Promise<LibraryTestStore>): void {
  describe("libraries: applying operations", () => {
    let store: LibraryTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });
    const seedLibrary = (domain?: string) => seedThreeEntries(store, domain);

    it("applies add with stable ids, default status and provenance", async () => {
      const result = await seedLibrary();
      expect(result.createdIds).toEqual(["G0", "G1", "G2"]);
      expect(result.created).toEqual([
        { index: 0, id: "G0" },
        { index: 1, id: "G1" },
        { index: 2, id: "G2" },
      ]);
      expect(result.version).toMatchObject({
        domain: "math",
        version: 1,
        parent: null,
        state: "committed",
        runId: "run-1",
        message: "first",
        createdAt: at(1).toISOString(),
      });
      expect(result.version.ops).toHaveLength(3);
      const head = await store.getHead("math");
      expect(head?.version).toBe(1);
      expect(head?.experiences.map((e) => [e.id, e.status])).toEqual([
        ["G0", "candidate"],
        ["G1", "active"],
        ["G2", "probation"],
      ]);
      expect(head?.experiences[2]).toEqual({
        id: "G2",
        domain: "math",
        text: "Prefer exact fractions over floats.",
        status: "probation",
        scope: { when: "answers are rationals", whenNot: "the task asks for decimals" },
        conflictGroup: "units",
        stats: { shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null },
        provenance: {
          runId: "run-1",
          version: 1,
          fromOps: ["add: learned: Prefer exact fractions over floats."],
        },
        history: [
          {
            at: at(1).toISOString(),
            version: 1,
            from: null,
            to: "probation",
            reason: "learned: Prefer exact fractions over floats.",
          },
        ],
        createdAt: at(1).toISOString(),
        updatedAt: at(1).toISOString(),
      });
    });

    it("modify changes text, status, scope and conflict group; status changes are lifecycle events", async () => {
      await seedLibrary();
      await store.applyOperations(
        "math",
        [
          {
            op: "modify",
            id: "G0",
            text: "Check units and magnitudes.",
            status: "active",
            reason: "helped twice",
          },
          { op: "modify", id: "G2", conflictGroup: null, scope: { when: "always" }, reason: "generalised" },
          { op: "keep", id: "G1", reason: "still useful" },
        ],
        { parent: 1, state: "committed", now: at(2) },
      );
      const [g0, g1, g2] = (await store.getHead("math"))!.experiences;
      expect(g0).toMatchObject({
        text: "Check units and magnitudes.",
        status: "active",
        updatedAt: at(2).toISOString(),
      });
      expect(g0!.history.at(-1)).toEqual({
        at: at(2).toISOString(),
        version: 2,
        from: "candidate",
        to: "active",
        reason: "helped twice",
      });
      expect(g1!.updatedAt).toBe(at(1).toISOString());
      expect(g1!.history).toHaveLength(1);
      expect(g2!.conflictGroup).toBeUndefined();
      expect(g2!.scope).toEqual({ when: "always" });
      expect(g2!.history).toHaveLength(1);
    });

    it("delete archives the entry with its history; merge archives sources into one new entry", async () => {
      await seedLibrary();
      await store.updateStats("math", [
        { id: "G0", shown: 4, success: 3, sumDelta: 0.5, lastUsedVersion: 1 },
        { id: "G1", shown: 2, success: 1, sumDelta: -0.25, lastUsedVersion: 1 },
      ]);
      const result = await store.applyOperations(
        "math",
        [
          { op: "delete", id: "G2", reason: "hurt accuracy" },
          {
            op: "merge",
            ids: ["G0", "G1"],
            text: "Check units; enumerate small cases.",
            reason: "overlap",
          },
        ],
        { parent: 1, state: "committed", now: at(2) },
      );
      expect(result.createdIds).toEqual(["G3"]);
      expect(result.created).toEqual([{ index: 1, id: "G3" }]);
      const head = (await store.getHead("math"))!;
      const byId = new Map(head.experiences.map((e) => [e.id, e]));
      expect(byId.get("G2")).toMatchObject({
        status: "archived",
        text: "Prefer exact fractions over floats.",
      });
      expect(byId.get("G2")!.history.at(-1)).toMatchObject({
        from: "probation",
        to: "archived",
        reason: "hurt accuracy",
      });
      for (const source of ["G0", "G1"]) {
        expect(byId.get(source)!.status).toBe("archived");
        expect(byId.get(source)!.history.at(-1)).toMatchObject({
          to: "archived",
          reason: "merged into G3",
          version: 2,
        });
      }
      // The merged entry takes the best status of its sources (active beats candidate) and their credit.
      expect(byId.get("G3")).toMatchObject({
        text: "Check units; enumerate small cases.",
        status: "active",
        provenance: { runId: null, version: 2, fromOps: ["G0", "G1"] },
        stats: { shown: 6, success: 4, sumDelta: 0.25, lastUsedVersion: 1 },
      });
    });

    it("merge uses the operation's status when given and keeps a conflict group shared by all sources", async () => {
      await store.applyOperations(
        "math",
        [add("a", { conflictGroup: "g" }), add("b", { conflictGroup: "g", status: "active" })],
        { parent: null, state: "committed" },
      );
      await store.applyOperations(
        "math",
        [{ op: "merge", ids: ["G0", "G1"], text: "ab", status: "candidate", reason: "r" }],
        {
          parent: 1,
          state: "committed",
        },
      );
      const merged = (await store.getHead("math"))!.experiences.find((e) => e.id === "G2");
      expect(merged).toMatchObject({ status: "candidate", conflictGroup: "g" });
    });

    it("applying on a version that does not exist fails with not_found and writes nothing", async () => {
      await seedLibrary();
      await expectTfgrpoError(
        store.applyOperations("math", [add("x")], { parent: 9, state: "proposed" }),
        "not_found",
      );
      await expectTfgrpoError(store.setVersionState("math", 9, "committed"), "not_found");
      expect(await store.listVersions("math")).toHaveLength(1);
      // The empty library is always a valid parent for a proposal.
      const fresh = await store.applyOperations("math", [add("restart")], {
        parent: null,
        state: "proposed",
      });
      expect(fresh.version).toMatchObject({ version: 2, parent: null });
      expect(fresh.createdIds).toEqual(["G3"]);
      await expectTfgrpoError(
        store.applyOperations("Not A Domain", [add("x")], { parent: null, state: "proposed" }),
        "invalid_input",
      );
    });

    const invalidSets: Array<{ name: string; ops: unknown[]; expected: RegExp[]; indexes: number[] }> = [
      {
        name: "an unknown id",
        ops: [add("fine"), { op: "modify", id: "G9", text: "x", reason: "r" }],
        expected: [/op\[1\] modify G9: unknown id G9/],
        indexes: [1],
      },
      {
        name: "modify of an archived entry",
        ops: [{ op: "modify", id: "G3", text: "x", reason: "r" }],
        expected: [/op\[0\] modify G3: G3 is archived/],
        indexes: [0],
      },
      {
        name: "merge of an archived or unknown entry, or of one entry twice",
        ops: [
          { op: "merge", ids: ["G0", "G3"], text: "x", reason: "r" },
          { op: "merge", ids: ["G1", "G1", "G7"], text: "y", reason: "r" },
        ],
        expected: [
          /op\[0\] merge G0\+G3: G3 is archived/,
          /op\[1\] merge G1\+G1\+G7: G1 is listed twice, unknown id G7/,
        ],
        indexes: [0, 1],
      },
      {
        name: "modify and delete of one entry",
        ops: [
          { op: "modify", id: "G1", text: "x", reason: "r" },
          { op: "delete", id: "G1", reason: "r" },
        ],
        expected: [
          /op\[0\] modify G1: contradicts op\[1\] delete G1/,
          /op\[1\] delete G1: contradicts op\[0\] modify G1/,
        ],
        indexes: [0, 1],
      },
      {
        name: "two modifies with different text",
        ops: [
          { op: "modify", id: "G0", text: "one", reason: "r" },
          { op: "modify", id: "G0", text: "two", reason: "r" },
        ],
        expected: [/both modify G0 with a different text/],
        indexes: [0, 1],
      },
      {
        name: "a merge source also deleted",
        ops: [
          { op: "merge", ids: ["G0", "G1"], text: "x", reason: "r" },
          { op: "delete", id: "G1", reason: "r" },
        ],
        expected: [
          /op\[1\] delete G1: contradicts op\[0\] merge G0\+G1: G1 is a merge source and also deleted/,
        ],
        indexes: [0, 1],
      },
      {
        name: "a merge source also modified",
        ops: [
          { op: "modify", id: "G0", status: "active", reason: "r" },
          { op: "merge", ids: ["G0", "G1"], text: "x", reason: "r" },
        ],
        expected: [/G0 is a merge source and also modified/],
        indexes: [0, 1],
      },
      {
        name: "two merges sharing a source",
        ops: [
          { op: "merge", ids: ["G0", "G1"], text: "x", reason: "r" },
          { op: "merge", ids: ["G1", "G2"], text: "y", reason: "r" },
        ],
        expected: [/G1 is a source of both merges/],
        indexes: [0, 1],
      },
      {
        name: "delete and keep of one entry",
        ops: [
          { op: "keep", id: "G2", reason: "r" },
          { op: "delete", id: "G2", reason: "r" },
        ],
        expected: [/G2 cannot be both kept and deleted/],
        indexes: [0, 1],
      },
      {
        name: "keep and modify of one entry",
        ops: [
          { op: "keep", id: "G2", reason: "r" },
          { op: "modify", id: "G2", text: "x", reason: "r" },
        ],
        expected: [/G2 cannot be both kept and modified/],
        indexes: [0, 1],
      },
      {
        name: "malformed operations",
        ops: [
          { op: "add", text: "no reason" },
          { op: "rename", id: "G0", reason: "r" },
          { op: "modify", id: "G0", reason: "changes nothing" },
          { op: "delete", id: "g1", reason: "r" },
        ],
        expected: [
          /op\[0\] add: reason: /,
          /op\[1\] rename G0: /,
          /op\[2\] modify G0: .*modify must change at least one/,
          /op\[3\] delete g1: id: experience ids look like G0/,
        ],
        indexes: [0, 1, 2, 3],
      },
    ];

    for (const { name: caseName, ops, expected, indexes } of invalidSets) {
      it(`refuses the whole set, writing nothing, for ${caseName}`, async () => {
        await seedLibrary();
        await store.applyOperations(
          "math",
          [{ op: "delete", id: "G2", reason: "r" }, add("G3 soon archived")],
          {
            parent: 1,
            state: "committed",
          },
        );
        await store.applyOperations("math", [{ op: "delete", id: "G3", reason: "r" }], {
          parent: 2,
          state: "committed",
        });
        const versions = await store.listVersions("math");
        const domains = await store.listDomains();
        const head = await store.getHead("math");
        const error = await expectTfgrpoError(
          store.applyOperations("math", ops as Operation[], { parent: 3, state: "committed" }),
          "invalid_operations",
        );
        expect(error.message).toMatch(/^invalid operations for math \(on v3\), nothing applied: /);
        for (const pattern of expected) expect(error.message).toMatch(pattern);
        const problems = (error.details?.problems ?? []) as Array<{ index: number }>;
        expect([...new Set(problems.map((p) => p.index))]).toEqual(indexes);
        expect(await store.listVersions("math")).toEqual(versions);
        expect(await store.listDomains()).toEqual(domains);
        expect(await store.getHead("math")).toEqual(head);
      });
    }

    it("accepts ops that agree: restoring an archived entry, repeated deletes, modifies of different fields", async () => {
      await seedLibrary();
      await store.applyOperations("math", [{ op: "delete", id: "G0", reason: "r" }], {
        parent: 1,
        state: "committed",
      });
      await store.applyOperations(
        "math",
        [
          { op: "modify", id: "G0", status: "active", reason: "it was right after all" },
          { op: "delete", id: "G1", reason: "a" },
          { op: "delete", id: "G1", reason: "b" },
          { op: "modify", id: "G2", text: "Prefer exact fractions.", reason: "shorter" },
          { op: "modify", id: "G2", status: "active", reason: "validated" },
        ],
        { parent: 2, state: "committed", now: at(3) },
      );
      const [g0, g1, g2] = (await store.getHead("math"))!.experiences;
      expect(g0!.status).toBe("active");
      expect(g0!.history.map((h) => h.to)).toEqual(["candidate", "archived", "active"]);
      expect(g1!.history.map((h) => h.reason)).toEqual([
        "learned: Enumerate small cases with code first.",
        "a",
      ]);
      expect(g2).toMatchObject({ text: "Prefer exact fractions.", status: "active" });
    });

    it("a failure injected mid-apply leaves versions, head, counters and ids unchanged", async () => {
      await seedLibrary();
      const versions = await store.listVersions("math");
      const domains = await store.listDomains();
      const head = await store.getHead("math");
      const boom = () => {
        throw new Error("injected failure after the entry rows");
      };
      const ops: Operation[] = [add("new"), { op: "merge", ids: ["G0", "G1"], text: "m", reason: "r" }];
      await expect(
        store.applyOperations("math", ops, { parent: 1, state: "committed", faults: { afterRows: boom } }),
      ).rejects.toThrow("injected failure");
      await expect(store.rollback("math", 1, { faults: { afterRows: boom } })).rejects.toThrow(
        "injected failure",
      );
      await expect(
        store.importLibrary("math", {
          text: '{"G0": "imported"}',
          file: "x.json",
          faults: { afterRows: boom },
        }),
      ).rejects.toThrow("injected failure");
      await expect(
        store.applyOperations("fresh", [add("x")], {
          parent: null,
          state: "committed",
          faults: { afterRows: boom },
        }),
      ).rejects.toThrow("injected failure");
      expect(await store.listVersions("math")).toEqual(versions);
      expect(await store.listDomains()).toEqual(domains);
      expect(await store.getHead("math")).toEqual(head);
      expect(await store.getVersion("math", 2)).toBeNull();
      // The next apply gets exactly the version and ids the failed one would have had.
      const retry = await store.applyOperations("math", ops, { parent: 1, state: "committed" });
      expect(retry.version.version).toBe(2);
      expect(retry.createdIds).toEqual(["G3", "G4"]);
    });
  });
}
