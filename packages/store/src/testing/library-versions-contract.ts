import type { Operation } from "@tfgrpo/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { add, at, gate, type LibraryTestStore, seedThreeEntries } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

/** Versions and the head: immutability, ids for life, commits, rollback, diff, stats, listings, readers. */
export function libraryVersionsContract(createFresh: () => Promise<LibraryTestStore>): void {
  describe("libraries: versions and the head", () => {
    let store: LibraryTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });
    const seedLibrary = (domain?: string) => seedThreeEntries(store, domain);

    it("setup is idempotent and a new store has no libraries", async () => {
      await store.setup();
      expect(await store.listDomains()).toEqual([]);
      expect(await store.getHead("math")).toBeNull();
      expect(await store.getHeadVersion("math")).toBeNull();
      expect(await store.getVersion("math", 1)).toBeNull();
      expect(await store.listVersions("math")).toEqual([]);
    });

    it("versions are immutable: later applies and commits never change an earlier version", async () => {
      await seedLibrary();
      const v1 = await store.getVersion("math", 1);
      const v1Info = await store.getVersionInfo("math", 1);
      await store.applyOperations("math", [{ op: "modify", id: "G0", text: "changed", reason: "r" }], {
        parent: 1,
        state: "committed",
        now: at(2),
      });
      await store.applyOperations("math", [{ op: "delete", id: "G1", reason: "r" }, add("new")], {
        parent: 2,
        state: "proposed",
        now: at(3),
      });
      await store.applyOperations("math", [{ op: "merge", ids: ["G0", "G2"], text: "m", reason: "r" }], {
        parent: 1,
        state: "committed",
        force: true,
        now: at(4),
      });
      expect(await store.getVersion("math", 1)).toEqual(v1);
      expect(await store.getVersionInfo("math", 1)).toEqual(v1Info);
      expect((await store.getVersion("math", 2))!.experiences[0]!.text).toBe("changed");
      // A committed version cannot be rejected afterwards, nor a rejected one committed.
      await expectTfgrpoError(store.setVersionState("math", 1, "rejected"), "conflict");
      await store.setVersionState("math", 3, "rejected");
      await expectTfgrpoError(
        store.setVersionState("math", 3, "committed", undefined, { force: true }),
        "conflict",
      );
      expect((await store.getVersionInfo("math", 3))!.state).toBe("rejected");
    });

    it("ids are stable across add, delete and merge and never reused, even after rejection and rollback", async () => {
      await seedLibrary(); // G0 G1 G2
      await store.applyOperations("math", [{ op: "delete", id: "G1", reason: "r" }], {
        parent: 1,
        state: "committed",
      });
      expect((await store.getHead("math"))!.experiences.map((e) => e.id)).toEqual(["G0", "G1", "G2"]);
      const merged = await store.applyOperations(
        "math",
        [{ op: "merge", ids: ["G0", "G2"], text: "merged", reason: "r" }],
        { parent: 2, state: "committed" },
      );
      expect(merged.createdIds).toEqual(["G3"]);
      const proposal = await store.applyOperations("math", [add("rejected idea")], {
        parent: 3,
        state: "proposed",
      });
      expect(proposal.createdIds).toEqual(["G4"]);
      await store.setVersionState("math", proposal.version.version, "rejected");
      expect(
        (await store.applyOperations("math", [add("next")], { parent: 3, state: "committed" })).createdIds,
      ).toEqual(["G5"]);
      await store.rollback("math", 1);
      expect((await store.getHead("math"))!.experiences.map((e) => [e.id, e.status])).toEqual([
        ["G0", "candidate"],
        ["G1", "active"],
        ["G2", "probation"],
      ]);
      const head = (await store.getHeadVersion("math"))!;
      expect(
        (await store.applyOperations("math", [add("after rollback")], { parent: head, state: "committed" }))
          .createdIds,
      ).toEqual(["G6"]);
      expect((await store.listDomains())[0]!.nextId).toBe(7);
    });

    it("the head is the version committed last; proposals and rejections do not move it", async () => {
      await seedLibrary();
      const proposal = await store.applyOperations("math", [add("maybe")], {
        parent: 1,
        state: "proposed",
      });
      expect(proposal.version.state).toBe("proposed");
      expect(await store.getHeadVersion("math")).toBe(1);
      expect((await store.getHead("math"))!.experiences).toHaveLength(3);
      const committed = await store.setVersionState("math", 2, "committed", gate, { now: at(5) });
      expect(committed).toMatchObject({ version: 2, state: "committed", gate });
      expect(await store.getHeadVersion("math")).toBe(2);
      // Repeating a state change is a no-op (a resumed run may repeat its last step).
      expect(await store.setVersionState("math", 2, "committed")).toEqual(committed);
      const rejected = await store.applyOperations("math", [add("worse")], {
        parent: 2,
        state: "proposed",
      });
      await store.setVersionState("math", rejected.version.version, "rejected", {
        ...gate,
        decision: "reject",
      });
      expect(await store.getHeadVersion("math")).toBe(2);
      expect((await store.getVersionInfo("math", 3))!.gate?.decision).toBe("reject");
      // A rejected version stays readable (for the record), it just is not the head.
      expect((await store.getVersion("math", 3))!.experiences).toHaveLength(5);
    });

    it("optimistic concurrency: committing on a stale parent fails with conflict unless forced", async () => {
      await seedLibrary();
      const a = await store.applyOperations("math", [add("from a")], { parent: 1, state: "proposed" });
      const b = await store.applyOperations("math", [add("from b")], { parent: 1, state: "proposed" });
      await store.setVersionState("math", a.version.version, "committed");
      const error = await expectTfgrpoError(
        store.setVersionState("math", b.version.version, "committed"),
        "conflict",
      );
      expect(error.message).toMatch(/v3 of math: it is based on v1 but the head is now v2/);
      expect(await store.getHeadVersion("math")).toBe(2);

      const versionsBefore = await store.listVersions("math");
      await expectTfgrpoError(
        store.applyOperations("math", [add("stale")], { parent: 1, state: "committed" }),
        "conflict",
      );
      expect(await store.listVersions("math")).toEqual(versionsBefore);

      await store.setVersionState("math", b.version.version, "committed", undefined, { force: true });
      expect(await store.getHeadVersion("math")).toBe(3);
      const forced = await store.applyOperations("math", [add("forced")], {
        parent: 1,
        state: "committed",
        force: true,
      });
      expect(await store.getHeadVersion("math")).toBe(forced.version.version);
      // A first commit must be based on the empty library.
      await store.applyOperations("web", [add("w")], { parent: null, state: "committed" });
      await expectTfgrpoError(
        store.applyOperations("web", [add("x")], { parent: null, state: "committed" }),
        "conflict",
      );
    });

    it("rollback commits a new version equal in content to the old one", async () => {
      await seedLibrary();
      await store.applyOperations(
        "math",
        [{ op: "modify", id: "G0", text: "v2 text", reason: "r" }, add("v2 add")],
        {
          parent: 1,
          state: "committed",
        },
      );
      await store.applyOperations(
        "math",
        [{ op: "merge", ids: ["G1", "G3"], text: "v3 merge", reason: "r" }],
        {
          parent: 2,
          state: "committed",
        },
      );
      const rolled = await store.rollback("math", 1, { now: at(9), runId: "run-2" });
      expect(rolled).toMatchObject({
        version: 4,
        parent: 3,
        state: "committed",
        ops: [],
        message: "rollback to v1",
        runId: "run-2",
        createdAt: at(9).toISOString(),
      });
      expect(await store.getHeadVersion("math")).toBe(4);
      const v1 = (await store.getVersion("math", 1))!;
      const v4 = (await store.getHead("math"))!;
      expect(v4.experiences).toEqual(v1.experiences);
      await store.applyOperations("math", [add("proposal")], { parent: 4, state: "proposed" });
      await store.setVersionState("math", 5, "rejected");
      await expectTfgrpoError(store.rollback("math", 5), "invalid_input");
      await expectTfgrpoError(store.rollback("math", 42), "not_found");
      await expectTfgrpoError(store.rollback("nothing", 1), "not_found");
    });

    it("a rollback given the head its caller saw is refused with conflict, writing nothing, once the head moved", async () => {
      await seedLibrary();
      const head = (await store.getHeadVersion("math"))!;
      const versions = (await store.listVersions("math")).length;
      await expectTfgrpoError(store.rollback("math", 1, { expectedHead: head - 1 }), "conflict");
      expect((await store.listVersions("math")).length).toBe(versions);
      expect(await store.getHeadVersion("math")).toBe(head);
      const rolled = await store.rollback("math", 1, { expectedHead: head });
      expect(rolled.parent).toBe(head);
    });

    it("diff reports added, removed (archived) and changed entries per id with before and after", async () => {
      await seedLibrary();
      await store.applyOperations(
        "math",
        [
          { op: "modify", id: "G0", text: "Check units twice.", reason: "r" },
          { op: "modify", id: "G1", status: "probation", conflictGroup: "speed", reason: "slipping" },
          { op: "delete", id: "G2", reason: "r" },
          add("Brand new."),
        ],
        { parent: 1, state: "committed" },
      );
      const diff = await store.diff("math", 1, 2);
      expect(diff.from).toBe(1);
      expect(diff.to).toBe(2);
      expect(diff.added.map((c) => [c.id, c.before, c.after?.text])).toEqual([["G3", null, "Brand new."]]);
      expect(diff.removed.map((c) => [c.id, c.before?.status, c.after?.status])).toEqual([
        ["G2", "probation", "archived"],
      ]);
      expect(diff.changed.map((c) => [c.id, c.fields])).toEqual([
        ["G0", ["text"]],
        ["G1", ["status", "conflictGroup"]],
      ]);
      expect(diff.changed[0]!.before?.text).toBe("Check units before answering.");
      expect(diff.changed[0]!.after?.text).toBe("Check units twice.");

      const back = await store.diff("math", 2, 1);
      expect(back.removed.map((c) => c.id)).toEqual(["G3"]);
      expect(back.changed.map((c) => c.id)).toEqual(["G0", "G1", "G2"]);
      const fromEmpty = await store.diff("math", null, 1);
      expect(fromEmpty.added.map((c) => c.id)).toEqual(["G0", "G1", "G2"]);
      expect((await store.diff("math", 2, 2)).changed).toEqual([]);
      await expectTfgrpoError(store.diff("math", 1, 7), "not_found");
    });

    it("stats are not versioned: updateStats adds in one transaction and every snapshot shows current stats", async () => {
      await seedLibrary();
      await store.applyOperations("math", [add("v2")], { parent: 1, state: "committed" });
      expect(
        await store.updateStats("math", [
          { id: "G0", shown: 3, success: 2, sumDelta: 0.5, lastUsedVersion: 2 },
          { id: "G0", shown: 1, success: 0, sumDelta: -0.25, lastUsedVersion: 1 },
          { id: "G3", shown: 1 },
        ]),
      ).toBe(2);
      const expected = { shown: 4, success: 2, sumDelta: 0.25, lastUsedVersion: 2 };
      expect((await store.getVersion("math", 1))!.experiences[0]!.stats).toEqual(expected);
      expect((await store.getHead("math"))!.experiences[0]!.stats).toEqual(expected);
      expect((await store.getHead("math"))!.experiences[3]!.stats).toEqual({
        shown: 1,
        success: 0,
        sumDelta: 0,
        lastUsedVersion: null,
      });
      const unknown = await expectTfgrpoError(
        store.updateStats("math", [
          { id: "G1", shown: 5 },
          { id: "G77", shown: 1 },
        ]),
        "not_found",
      );
      expect(unknown.message).toMatch(/unknown ids G77/);
      await expectTfgrpoError(store.updateStats("math", [{ id: "G1", shown: -1 }]), "invalid_input");
      expect((await store.getHead("math"))!.experiences[1]!.stats.shown).toBe(0);
    });

    it("contrasts add up per entry and per version the rollouts read", async () => {
      await seedLibrary();
      await store.applyOperations("math", [add("v2")], { parent: 1, state: "committed" });
      await store.updateStats("math", [
        { id: "G0", shown: 3, lastUsedVersion: 1, contrast: { n: 2, sum: 0.5, sumSquares: 0.25 } },
        { id: "G0", shown: 2, lastUsedVersion: 2, contrast: { n: 1, sum: -0.5, sumSquares: 0.25 } },
        { id: "G1", shown: 1, lastUsedVersion: 2 },
      ]);
      await store.updateStats("math", [
        { id: "G0", lastUsedVersion: 2, contrast: { n: 3, sum: 1, sumSquares: 0.5 } },
      ]);
      const head = (await store.getHead("math"))!;
      expect(head.experiences[0]!.stats.contrast).toEqual({ n: 6, sum: 1, sumSquares: 1 });
      // No contrast recorded: none read back.
      expect(head.experiences[1]!.stats.contrast).toBeUndefined();
      expect(await store.listVersionContrasts("math", "G0")).toEqual([
        { version: 1, contrast: { n: 2, sum: 0.5, sumSquares: 0.25 } },
        { version: 2, contrast: { n: 4, sum: 0.5, sumSquares: 0.75 } },
      ]);
      expect(await store.listVersionContrasts("math", "G1")).toEqual([]);
      await expectTfgrpoError(
        store.updateStats("math", [{ id: "G1", contrast: { n: 1, sum: 0, sumSquares: -1 } }]),
        "invalid_input",
      );
      // A status change keeps the contrast: it belongs to the wording, which did not change.
      await store.applyOperations("math", [{ op: "modify", id: "G0", status: "probation", reason: "r" }], {
        parent: 2,
        state: "committed",
      });
      const measured = { n: 6, sum: 1, sumSquares: 1 };
      expect((await store.getHead("math"))!.experiences[0]!.stats.contrast).toEqual(measured);
      // A proposed rewrite (a candidate the gate may still reject) leaves the head's contrast as it is...
      await store.applyOperations("math", [{ op: "modify", id: "G0", text: "A new wording.", reason: "r" }], {
        parent: 3,
        state: "proposed",
      });
      expect((await store.getHead("math"))!.experiences[0]!.stats.contrast).toEqual(measured);
      // ...and the rewritten version reads none: nothing was measured on its wording yet.
      const rewritten = (await store.getVersion("math", 4))!.experiences[0]!;
      expect(rewritten.stats.contrast).toBeUndefined();
      expect(rewritten.stats.shown).toBe(5);
      // Once rollouts of the new wording are credited, its contrast starts from them; the old wording reads none.
      await store.updateStats("math", [
        { id: "G0", lastUsedVersion: 4, contrast: { n: 1, sum: -0.5, sumSquares: 0.25 } },
      ]);
      expect((await store.getVersion("math", 4))!.experiences[0]!.stats.contrast).toEqual({
        n: 1,
        sum: -0.5,
        sumSquares: 0.25,
      });
      expect((await store.getHead("math"))!.experiences[0]!.stats.contrast).toBeUndefined();
      expect(await store.listVersionContrasts("math", "G0")).toHaveLength(3);
    });

    it("lists domains and versions", async () => {
      await seedLibrary("web");
      await seedLibrary("math");
      await store.applyOperations("math", [{ op: "delete", id: "G0", reason: "r" }], {
        parent: 1,
        state: "proposed",
      });
      expect(await store.listDomains()).toEqual([
        {
          domain: "math",
          head: 1,
          latestVersion: 2,
          versions: 2,
          nextId: 3,
          headCounts: { candidate: 1, active: 1, probation: 1, archived: 0 },
        },
        {
          domain: "web",
          head: 1,
          latestVersion: 1,
          versions: 1,
          nextId: 3,
          headCounts: { candidate: 1, active: 1, probation: 1, archived: 0 },
        },
      ]);
      expect((await store.listVersions("math")).map((v) => [v.version, v.parent, v.state])).toEqual([
        [1, null, "committed"],
        [2, 1, "proposed"],
      ]);
    });

    it("concurrent readers see either the old or the new head, never a mix", async () => {
      // Every entry of version N says "rev N", so a snapshot mixing two versions is visible.
      const entries = 40;
      await store.applyOperations(
        "math",
        Array.from({ length: entries }, () => add("rev 1")),
        { parent: null, state: "committed" },
      );
      const writer = (async () => {
        for (let version = 2; version <= 12; version++) {
          const ops: Operation[] = Array.from({ length: entries }, (_, i) => ({
            op: "modify",
            id: `G${i}`,
            text: `rev ${version}`,
            reason: "r",
          }));
          await store.applyOperations("math", ops, { parent: version - 1, state: "committed" });
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const seen = new Set<number>();
      const readers = Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 30; i++) {
          const head = (await store.getHead("math"))!;
          seen.add(head.version);
          expect(head.experiences).toHaveLength(entries);
          expect(new Set(head.experiences.map((e) => e.text))).toEqual(new Set([`rev ${head.version}`]));
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      await Promise.all([writer, ...readers]);
      expect(seen.size).toBeGreaterThan(1);
      expect((await store.getHead("math"))!.version).toBe(12);
    });
  });
}
