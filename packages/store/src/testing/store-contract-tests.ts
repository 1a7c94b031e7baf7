import { readFileSync } from "node:fs";
import type { GateDecision, Operation, Run } from "@tfgrpo/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../store.js";
import { expectTfgrpoError, makeTrajectory } from "./fixtures.js";
import { realLibraryPath } from "./real-libraries.js";

const t0 = new Date("2026-01-01T00:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

const add = (text: string, extra: Partial<Extract<Operation, { op: "add" }>> = {}): Operation => ({
  op: "add",
  text,
  reason: `learned: ${text}`,
  ...extra,
});

const gate: GateDecision = {
  decision: "commit",
  candidateScore: 0.7,
  headScore: 0.6,
  margin: 0.02,
  mode: "better-by-margin",
  tasks: 20,
  stage: "full",
  reason: "better on held-out tasks",
};

/**
 * The conformance suite every Store backend must pass (like langgraph's checkpoint `specTest`).
 * `createFresh` returns a new, set-up, empty store each time; the suite closes it.
 */
export function storeContractTests(name: string, createFresh: () => Promise<Store>): void {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });

    /** v1 = G0 (candidate), G1 (active), G2 (probation, scoped, in conflict group "units"), committed. */
    async function seedLibrary(domain = "math") {
      return store.applyOperations(
        domain,
        [
          add("Check units before answering."),
          add("Enumerate small cases with code first.", { status: "active" }),
          add("Prefer exact fractions over floats.", {
            status: "probation",
            scope: { when: "answers are rationals", whenNot: "the task asks for decimals" },
            conflictGroup: "units",
          }),
        ],
        { parent: null, state: "committed", runId: "run-1", message: "first", now: at(1) },
      );
    }

    describe("libraries", () => {
      it("setup is idempotent and a new store has no libraries", async () => {
        await store.setup();
        expect(await store.listDomains()).toEqual([]);
        expect(await store.getHead("math")).toBeNull();
        expect(await store.getHeadVersion("math")).toBeNull();
        expect(await store.getVersion("math", 1)).toBeNull();
        expect(await store.listVersions("math")).toEqual([]);
      });

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

    describe("export and import", () => {
      /** A library with every feature an export must carry: statuses, scope, conflict group, stats, history. */
      async function richLibrary(domain = "math") {
        await seedLibrary(domain);
        await store.applyOperations(
          domain,
          [
            {
              op: "merge",
              ids: ["G0", "G1"],
              text: "Check units; enumerate small cases.",
              reason: "overlap",
            },
            add("  Leading spaces, and a trailing newline\n"),
            add("## G9 is not a heading\n```python\nprint('not a fence')\n```\n# nor a title"),
            add("Windows line\r\nendings"),
            add('Unicode φ(N/d) — ✓ and "quotes" and <tags> and `code`', { status: "active" }),
            add("Two paragraphs.\n\nThe second one.", { scope: { whenNot: "never" } }),
          ],
          { parent: 1, state: "committed", runId: "run-7", now: at(2) },
        );
        await store.updateStats(domain, [
          { id: "G3", shown: 10, success: 7, sumDelta: 1.5, lastUsedVersion: 2 },
          { id: "G2", shown: 2, success: 0.5, sumDelta: -0.75, lastUsedVersion: 1 },
        ]);
        return (await store.getHead(domain))!;
      }

      for (const format of ["json", "markdown"] as const) {
        it(`${format}: export -> import into a new library round-trips exactly`, async () => {
          const original = await richLibrary();
          const exported = await store.exportLibrary("math", { format });
          const target = await createFresh();
          try {
            const result = await target.importLibrary("math", {
              text: exported,
              file: `math.${format === "json" ? "json" : "md"}`,
            });
            expect(result).toMatchObject({
              format,
              preservedIds: true,
              entries: original.experiences.length,
            });
            expect(Object.entries(result.ids).every(([from, to]) => from === to)).toBe(true);
            const imported = (await target.getHead("math"))!;
            expect(imported.experiences).toEqual(original.experiences);
            const again = await target.exportLibrary("math", { format });
            const version = (text: string) => text.replace(/"version": \d+/, "").replace(/version \d+/, "");
            expect(version(again)).toBe(version(exported));
            // Ids handed out by the file are taken: the next new entry continues after them.
            const next = await target.applyOperations("math", [add("next")], {
              parent: imported.version,
              state: "committed",
            });
            expect(next.createdIds).toEqual([`G${original.experiences.length}`]);
          } finally {
            await target.close();
          }
        });
      }

      it("plain: imports the real youtu-agent libraries and exports them back byte for byte", async () => {
        for (const [name, count] of [
          ["math", 27],
          ["web", 46],
        ] as const) {
          const file = realLibraryPath(name);
          const text = readFileSync(file, "utf8");
          const result = await store.importLibrary(name, { text, file, now: at(1) });
          expect(result).toMatchObject({ format: "plain", preservedIds: true, entries: count });
          const head = (await store.getHead(name))!;
          expect(head.experiences).toHaveLength(count);
          expect(head.experiences.every((e) => e.status === "active")).toBe(true);
          expect(head.experiences[0]!.history).toEqual([
            {
              at: at(1).toISOString(),
              version: 1,
              from: null,
              to: "active",
              reason: `imported from ${name}.json (G0)`,
            },
          ]);
          expect(await store.exportLibrary(name, { format: "plain" })).toBe(text);
          // And through the other two formats as well.
          for (const format of ["json", "markdown"] as const) {
            const exported = await store.exportLibrary(name, { format });
            const copy = await createFresh();
            try {
              await copy.importLibrary(name, { text: exported, file: `${name}.${format}` });
              expect(await copy.exportLibrary(name, { format: "plain" })).toBe(text);
              expect((await copy.getHead(name))!.experiences).toEqual(head.experiences);
            } finally {
              await copy.close();
            }
          }
        }
      });

      it("plain export leaves archived entries out", async () => {
        await richLibrary();
        const plain = JSON.parse(await store.exportLibrary("math", { format: "plain" })) as Record<
          string,
          string
        >;
        expect(Object.keys(plain)).toEqual(["G2", "G3", "G4", "G5", "G6", "G7", "G8"]);
      });

      it("importing into a library that has handed out ids gives fresh ids and reports the mapping", async () => {
        await seedLibrary();
        const result = await store.importLibrary("math", {
          text: JSON.stringify({ G0: "Imported zero.", G5: "Imported five." }),
          file: "other.json",
          defaultStatus: "candidate",
          now: at(3),
        });
        expect(result).toMatchObject({ preservedIds: false, ids: { G0: "G3", G5: "G4" }, entries: 2 });
        expect(result.version).toMatchObject({ version: 2, parent: 1, state: "committed" });
        expect(result.version.ops).toEqual([
          { op: "add", text: "Imported zero.", status: "candidate", reason: "imported from other.json (G0)" },
          { op: "add", text: "Imported five.", status: "candidate", reason: "imported from other.json (G5)" },
        ]);
        const head = (await store.getHead("math"))!;
        expect(head.experiences.map((e) => [e.id, e.text, e.status])).toEqual([
          ["G0", "Check units before answering.", "candidate"],
          ["G1", "Enumerate small cases with code first.", "active"],
          ["G2", "Prefer exact fractions over floats.", "probation"],
          ["G3", "Imported zero.", "candidate"],
          ["G4", "Imported five.", "candidate"],
        ]);
      });

      it("keeps gaps in imported ids and never hands the skipped ids out later", async () => {
        await store.importLibrary("math", {
          text: JSON.stringify({ G2: "two", G7: "seven" }),
          file: "gaps.json",
        });
        const next = await store.applyOperations("math", [add("next")], { parent: 1, state: "committed" });
        expect(next.createdIds).toEqual(["G8"]);
      });

      const malformed: Array<{ file: string; text: string; expected: RegExp[] }> = [
        {
          file: "broken.json",
          text: '{"G0": "fine", "G1": ',
          expected: [/^cannot import broken\.json, nothing changed: broken\.json: invalid JSON/],
        },
        {
          file: "plain.json",
          text: JSON.stringify({ G0: "fine", G1: 42, X7: "bad id", G3: "  " }),
          expected: [
            /plain\.json: entry "G1" field "text": expected a non-empty string, got number/,
            /plain\.json: entry "X7" field "id": experience ids look like G0/,
            /plain\.json: entry "G3" field "text": expected a non-empty string, got an empty string/,
          ],
        },
        {
          file: "full.json",
          text: JSON.stringify({
            format: "tfgrpo-library",
            formatVersion: 1,
            domain: "math",
            version: 3,
            experiences: [
              { id: "G0" },
              {
                id: "G1",
                domain: "math",
                text: "t",
                status: "retired",
                stats: { shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null },
                provenance: { runId: null, version: 1, fromOps: [] },
                history: [],
                createdAt: "x",
                updatedAt: "x",
              },
            ],
          }),
          expected: [
            /full\.json: entry G0 \(experiences\[0\]\) field "text"/,
            /full\.json: entry G1 \(experiences\[1\]\) field "status"/,
          ],
        },
        {
          file: "notes.md",
          text: [
            "# Experience library",
            "",
            "## G0",
            "",
            "Fine text.",
            "",
            "## G1",
            "",
            "Text with bad metadata.",
            "",
            "```json tfgrpo-entry",
            '{"status": "retired", "stats": {"shown": -1, "success": 0, "sumDelta": 0, "lastUsedVersion": null}}',
            "```",
            "",
            "## Gx",
            "",
            "## G3",
            "",
            "```json tfgrpo-entry",
            '{"staus": "active"}',
            "```",
          ].join("\n"),
          expected: [
            /notes\.md:11: entry G1 field "status": /,
            /notes\.md:11: entry G1 field "stats\.shown": /,
            /notes\.md:15: entry Gx field "id": heading must be "## G<n>"/,
            /notes\.md:19: entry G3 field "metadata": Unrecognized key.*: staus/,
          ],
        },
      ];

      for (const { file, text, expected } of malformed) {
        it(`refuses malformed ${file} whole, naming file, entry and field, and changes nothing`, async () => {
          await seedLibrary();
          const versions = await store.listVersions("math");
          const domains = await store.listDomains();
          const error = await expectTfgrpoError(store.importLibrary("math", { text, file }), "invalid_input");
          for (const pattern of expected) expect(error.message).toMatch(pattern);
          expect(error.details?.file).toBe(file);
          expect(await store.listVersions("math")).toEqual(versions);
          expect(await store.listDomains()).toEqual(domains);
          await expectTfgrpoError(store.importLibrary("newdomain", { text, file }), "invalid_input");
          expect(await store.listDomains()).toEqual(domains);
        });
      }

      it("reads hand-written Markdown: sections without metadata get the import defaults", async () => {
        const text = [
          "# My lessons",
          "",
          "Some notes that are not entries.",
          "",
          "## G0",
          "",
          "Check the units.",
          "",
          "## G1 (my favourite)",
          "",
          "Enumerate small cases.",
          "Then generalise.",
          "",
          "```json tfgrpo-entry",
          '{"status": "probation", "conflictGroup": "style"}',
          "```",
          "",
        ].join("\n");
        const result = await store.importLibrary("math", { text, file: "lessons.md", now: at(1) });
        expect(result.format).toBe("markdown");
        const head = (await store.getHead("math"))!;
        expect(head.experiences.map((e) => [e.id, e.text, e.status, e.conflictGroup])).toEqual([
          ["G0", "Check the units.", "active", undefined],
          ["G1", "Enumerate small cases.\nThen generalise.", "probation", "style"],
        ]);
      });

      it("exporting a library or version that does not exist fails with not_found", async () => {
        await expectTfgrpoError(store.exportLibrary("math", { format: "json" }), "not_found");
        await seedLibrary();
        await expectTfgrpoError(store.exportLibrary("math", { format: "json", version: 5 }), "not_found");
        const v1 = await store.exportLibrary("math", { format: "json", version: 1 });
        expect(JSON.parse(v1)).toMatchObject({ format: "tfgrpo-library", domain: "math", version: 1 });
      });
    });

    describe("runs, trajectories, usage and run state", () => {
      const run: Run = {
        id: "run-1",
        kind: "learn",
        domain: "math",
        status: "running",
        config: { groupSize: 4 },
        startedAt: at(0).toISOString(),
        finishedAt: null,
      };

      it("creates, updates, reads and lists runs", async () => {
        expect(await store.createRun(run)).toEqual(run);
        await expectTfgrpoError(store.createRun(run), "conflict");
        await store.createRun({ ...run, id: "run-2", kind: "eval", startedAt: at(5).toISOString() });
        const finished = await store.updateRun("run-1", {
          status: "finished",
          finishedAt: at(9).toISOString(),
          summary: { accuracy: 0.5 },
        });
        expect(finished).toEqual({
          ...run,
          status: "finished",
          finishedAt: at(9).toISOString(),
          summary: { accuracy: 0.5 },
        });
        expect(await store.getRun("run-1")).toEqual(finished);
        expect(await store.getRun("nope")).toBeNull();
        expect((await store.listRuns()).map((r) => r.id)).toEqual(["run-2", "run-1"]);
        expect((await store.listRuns({ kind: "learn" })).map((r) => r.id)).toEqual(["run-1"]);
        expect((await store.listRuns({ status: "running", limit: 5 })).map((r) => r.id)).toEqual(["run-2"]);
        await expectTfgrpoError(store.updateRun("nope", { status: "failed" }), "not_found");
        await expectTfgrpoError(
          store.updateRun("run-1", { status: "exploded" as Run["status"] }),
          "invalid_input",
        );
        expect((await store.getRun("run-1"))!.status).toBe("finished");
      });

      it("stores trajectories once per id (last write wins) and queries them by run, epoch, step, group and task", async () => {
        const trajectories = [
          makeTrajectory({ id: "t1", groupId: "g1", taskId: "a", attempt: 0, epoch: 0, step: 0 }),
          makeTrajectory({ id: "t2", groupId: "g1", taskId: "a", attempt: 1, epoch: 0, step: 0 }),
          makeTrajectory({ id: "t3", groupId: "g2", taskId: "b", attempt: 0, epoch: 0, step: 1 }),
          makeTrajectory({ id: "t4", groupId: "g3", taskId: "a", attempt: 0, epoch: 1, step: 0 }),
          makeTrajectory({ id: "t5", runId: "run-2", groupId: "g9", taskId: "a" }),
        ];
        expect(await store.putTrajectories(trajectories)).toBe(5);
        // A redelivered result, now with its reward: stored once, the later write wins.
        await store.putTrajectories([{ ...trajectories[1]!, reward: 1 }]);
        expect(await store.countTrajectories({})).toBe(5);
        expect(await store.getTrajectory("t2")).toEqual({ ...trajectories[1], reward: 1 });
        expect(await store.getTrajectory("nope")).toBeNull();
        const ids = async (filter: Parameters<Store["listTrajectories"]>[0]) =>
          (await store.listTrajectories(filter)).map((t) => t.id);
        expect(await ids({ runId: "run-1" })).toEqual(["t1", "t2", "t3", "t4"]);
        expect(await ids({ runId: "run-1", epoch: 0 })).toEqual(["t1", "t2", "t3"]);
        expect(await ids({ runId: "run-1", epoch: 0, step: 1 })).toEqual(["t3"]);
        expect(await ids({ groupId: "g1" })).toEqual(["t1", "t2"]);
        expect(await ids({ taskId: "a" })).toEqual(["t5", "t1", "t2", "t4"]);
        expect(await ids({ ids: ["t4", "t1", "zzz"] })).toEqual(["t1", "t4"]);
        expect(await ids({ runId: "run-1", limit: 2, offset: 1 })).toEqual(["t2", "t3"]);
        expect(await store.countTrajectories({ runId: "run-1", epoch: 0 })).toBe(3);
        const bad = await expectTfgrpoError(
          store.putTrajectories([
            makeTrajectory({ id: "t6" }),
            { ...makeTrajectory({ id: "t7" }), reward: 3 },
          ]),
          "invalid_input",
        );
        expect(bad.message).toMatch(/trajectories\[1\] \(t7\): reward/);
        expect(await store.getTrajectory("t6")).toBeNull();
      });

      it("sums usage per run, role and model; records with an id are counted once", async () => {
        const call = {
          model: "deepseek-chat",
          inputTokens: 100,
          cachedInputTokens: 40,
          outputTokens: 20,
          costUsd: 0.01,
          latencyMs: 300,
        };
        expect(
          await store.recordUsage("run-1", [
            { ...call, role: "actor", id: "job-1#0" },
            { ...call, role: "actor", id: "job-1#1" },
            { ...call, role: "critic", model: "judge-model", id: "job-2#0" },
          ]),
        ).toBe(3);
        expect(await store.recordUsage("run-1", [{ ...call, role: "actor", id: "job-1#0" }])).toBe(0);
        await store.recordUsage("run-2", [{ ...call, role: "curator" }]);
        const report = await store.getUsageTotals("run-1");
        expect(report.total).toEqual({
          calls: 3,
          inputTokens: 300,
          cachedInputTokens: 120,
          outputTokens: 60,
          costUsd: expect.closeTo(0.03, 10),
          latencyMs: 900,
        });
        expect(report.byRole.actor).toMatchObject({ calls: 2, inputTokens: 200 });
        expect(report.byRole.critic).toMatchObject({ calls: 1 });
        expect(report.byRole.curator).toBeUndefined();
        expect(Object.keys(report.byModel).sort()).toEqual(["deepseek-chat", "judge-model"]);
        expect((await store.getUsageTotals("nothing")).total.calls).toBe(0);
        await expectTfgrpoError(
          store.recordUsage("run-1", [{ ...call, role: "painter" as "actor" }]),
          "invalid_input",
        );
        expect((await store.getUsageTotals("run-1")).total.calls).toBe(3);
      });

      it("keeps a durable key-value area per run", async () => {
        expect(await store.getRunState("run-1", "cursor")).toBeUndefined();
        await store.putRunState("run-1", "cursor", { epoch: 1, step: 3, done: ["a", "b"] });
        await store.putRunState("run-1", "cursor", { epoch: 1, step: 4, done: ["a", "b", "c"] });
        await store.putRunState("run-1", "budget", 1.25);
        await store.putRunState("run-2", "cursor", null);
        expect(await store.getRunState("run-1", "cursor")).toEqual({
          epoch: 1,
          step: 4,
          done: ["a", "b", "c"],
        });
        expect(await store.getRunState("run-2", "cursor")).toBeNull();
        expect(await store.listRunStateKeys("run-1")).toEqual(["budget", "cursor"]);
        expect(await store.deleteRunState("run-1", "budget")).toBe(true);
        expect(await store.deleteRunState("run-1", "budget")).toBe(false);
        await expectTfgrpoError(store.putRunState("run-1", "x", undefined), "invalid_input");
        await expectTfgrpoError(store.putRunState("run-1", "x", { big: 1n }), "invalid_input");
      });
    });
  });
}
