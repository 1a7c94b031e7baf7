import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LibraryStore } from "../library-store.js";
import type { OutcomeStore, ServedSelection } from "../outcome-store.js";
import type { StoreLifecycle } from "../store.js";
import { at, seedThreeEntries } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

/** An outcome store credits library entries, so its suite runs on a backend holding both. */
export type OutcomeTestStore = OutcomeStore & LibraryStore & StoreLifecycle;

const selection = (id: string, extra: Partial<ServedSelection> = {}): ServedSelection => ({
  selectionId: id,
  domain: "math",
  version: 1,
  entryIds: ["G1", "G0"],
  explorationIds: ["G0"],
  task: `task of ${id}`,
  servedAt: at(2).toISOString(),
  ...extra,
});

/**
 * The conformance suite of an `OutcomeStore` backend: selections and outcomes, exactly-once reports with their
 * credit in one step, listing by cursor and window, consumption by reflections. `createFresh` returns a new, set-up,
 * empty store each time; the suite closes it.
 */
export function outcomeStoreContractTests(name: string, createFresh: () => Promise<OutcomeTestStore>): void {
  describe(`outcome store contract: ${name}`, () => {
    let store: OutcomeTestStore;
    beforeEach(async () => {
      store = await createFresh();
      await seedThreeEntries(store);
    });
    afterEach(async () => {
      await store.close();
    });

    const stats = async (id: string) =>
      (await store.getHead("math"))!.experiences.find((e) => e.id === id)!.stats;

    it("stores a selection and its outcome, and credits the shown entries in the same step", async () => {
      await store.recordSelection(selection("s1", { meta: { client: "test", arm: "head" } }));
      const outcome = await store.reportOutcome(
        {
          selectionId: "s1",
          reward: 0.75,
          success: true,
          feedback: "close, but check the units",
          trajectory: [
            { role: "user", content: "2+2?" },
            { role: "assistant", content: "4" },
          ],
          citedIds: ["G1"],
        },
        { now: at(3) },
      );
      expect(outcome).toMatchObject({
        selectionId: "s1",
        domain: "math",
        version: 1,
        entryIds: ["G1", "G0"],
        explorationIds: ["G0"],
        task: "task of s1",
        servedAt: at(2).toISOString(),
        meta: { client: "test", arm: "head" },
        reward: 0.75,
        success: true,
        feedback: "close, but check the units",
        trajectory: [
          { role: "user", content: "2+2?" },
          { role: "assistant", content: "4" },
        ],
        summary: null,
        citedIds: ["G1"],
        reportedAt: at(3).toISOString(),
        consumedBy: null,
        consumedAt: null,
      });
      expect(outcome.seq).toBeGreaterThan(0);
      expect(await stats("G1")).toEqual({ shown: 1, success: 0.75, sumDelta: 0, lastUsedVersion: 1 });
      expect(await stats("G0")).toEqual({ shown: 1, success: 0.75, sumDelta: 0, lastUsedVersion: 1 });
      expect(await stats("G2")).toEqual({ shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null });
      expect(await store.getSelection("s1")).toEqual({
        selection: selection("s1", { meta: { client: "test", arm: "head" } }),
        outcome,
      });
      expect(await store.getSelection("nope")).toBeNull();
    });

    it("counts an outcome once: a second report is a conflict and changes nothing", async () => {
      await store.recordSelection(selection("s1"));
      await store.reportOutcome({ selectionId: "s1", reward: 1, success: true }, { now: at(3) });
      const error = await expectTfgrpoError(
        store.reportOutcome({ selectionId: "s1", reward: 0, success: false }),
        "conflict",
      );
      expect(error.message).toBe(
        `selection s1 was already reported at ${at(3).toISOString()}; an outcome counts once`,
      );
      expect(await stats("G1")).toMatchObject({ shown: 1, success: 1 });
      expect((await store.listOutcomes({ domain: "math" })).map((o) => o.reward)).toEqual([1]);
    });

    it("of 20 simultaneous reports of one selection exactly one is stored and credited", async () => {
      await store.recordSelection(selection("s1"));
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          store.reportOutcome({ selectionId: "s1", reward: i % 2, success: i % 2 === 1 }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await store.countOutcomes("math")).toEqual({
        served: 1,
        reported: 1,
        successes: expect.any(Number),
        unconsumed: 1,
      });
      expect((await stats("G1")).shown).toBe(1);
    });

    it("refuses a report of an unknown selection, or one whose entries are gone, storing nothing", async () => {
      const unknown = await expectTfgrpoError(
        store.reportOutcome({ selectionId: "never-served", reward: 1, success: true }),
        "not_found",
      );
      expect(unknown.message).toContain("unknown selection never-served");
      // A selection naming an entry the library never had: its credit cannot be given, so the outcome is not kept.
      await store.recordSelection(selection("s9", { entryIds: ["G1", "G99"], explorationIds: [] }));
      await expectTfgrpoError(
        store.reportOutcome({ selectionId: "s9", reward: 1, success: true }),
        "not_found",
      );
      expect(await store.listOutcomes({ domain: "math" })).toEqual([]);
      expect((await stats("G1")).shown).toBe(0);
      expect((await store.getSelection("s9"))!.outcome).toBeNull();
    });

    it("refuses bad input naming the field, writing nothing", async () => {
      await store.recordSelection(selection("s1"));
      const reward = await expectTfgrpoError(
        store.reportOutcome({ selectionId: "s1", reward: 2, success: true }),
        "invalid_input",
      );
      expect(reward.message).toMatch(/^invalid outcome report: reward: /);
      const cited = await expectTfgrpoError(
        store.reportOutcome({ selectionId: "s1", reward: 1, success: true, citedIds: ["G1", "rule 4"] }),
        "invalid_input",
      );
      expect(cited.message).toContain("citedIds[1]");
      const exploration = await expectTfgrpoError(
        store.recordSelection(selection("s2", { explorationIds: ["G2"] })),
        "invalid_input",
      );
      expect(exploration.message).toContain("explorationIds[0]: G2 is not among the entry ids shown");
      await expectTfgrpoError(store.recordSelection(selection("s3", { domain: "Math!" })), "invalid_input");
      expect(await store.getSelection("s2")).toBeNull();
      expect(await store.listOutcomes({ domain: "math" })).toEqual([]);
    });

    it("recording the same selection again is harmless; different content under its id is a conflict", async () => {
      await store.recordSelection(selection("s1"));
      await store.recordSelection(selection("s1"));
      await expectTfgrpoError(store.recordSelection(selection("s1", { task: "another task" })), "conflict");
      expect((await store.getSelection("s1"))!.selection.task).toBe("task of s1");
      expect(await store.countOutcomes("math")).toEqual({
        served: 1,
        reported: 0,
        successes: 0,
        unconsumed: 0,
      });
    });

    it("a selection from the empty library (no version, nothing shown) is reported like any other", async () => {
      await store.recordSelection(
        selection("s0", { domain: "fresh", version: null, entryIds: [], explorationIds: [] }),
      );
      const outcome = await store.reportOutcome({
        selectionId: "s0",
        reward: 0,
        success: false,
        summary: "gave up",
      });
      expect(outcome).toMatchObject({ domain: "fresh", version: null, summary: "gave up", trajectory: null });
      expect(
        (await store.listOutcomes({ domain: "fresh", version: null })).map((o) => o.selectionId),
      ).toEqual(["s0"]);
    });

    it("lists a domain's outcomes in report order by cursor, window, version, latest and consumption", async () => {
      await store.recordSelection(
        selection("other", { domain: "web", version: null, entryIds: [], explorationIds: [] }),
      );
      for (let i = 0; i < 6; i++) await store.recordSelection(selection(`s${i}`, { version: 1 }));
      // Reported out of serving order: report order is what counts.
      const order = [3, 0, 5, 1, 4, 2];
      for (const [minute, i] of order.entries()) {
        await store.reportOutcome(
          { selectionId: `s${i}`, reward: i / 10, success: i % 2 === 0 },
          { now: at(10 + minute) },
        );
      }
      await store.reportOutcome({ selectionId: "other", reward: 1, success: true }, { now: at(10) });
      const ids = async (filter: Omit<Parameters<OutcomeStore["listOutcomes"]>[0], "domain">) =>
        (await store.listOutcomes({ domain: "math", ...filter })).map((o) => o.selectionId);
      const all = await store.listOutcomes({ domain: "math" });
      expect(all.map((o) => o.selectionId)).toEqual(order.map((i) => `s${i}`));
      expect(all.map((o) => o.seq)).toEqual([...all.map((o) => o.seq)].sort((a, b) => a - b));
      expect(await ids({ after: all[2]!.seq })).toEqual(["s1", "s4", "s2"]);
      expect(await ids({ after: all[2]!.seq, limit: 2 })).toEqual(["s1", "s4"]);
      expect(await ids({ since: at(11), until: at(13) })).toEqual(["s0", "s5"]);
      expect(await ids({ latest: 2 })).toEqual(["s4", "s2"]);
      expect(await ids({ version: 1 })).toHaveLength(6);
      expect(await ids({ version: 2 })).toEqual([]);
      expect(await ids({ after: all.at(-1)!.seq })).toEqual([]);
      expect((await store.listOutcomes({ domain: "web" })).map((o) => o.selectionId)).toEqual(["other"]);

      expect(await store.markConsumed("math", ["s3", "s0", "s0"], "reflection-1", { now: at(30) })).toBe(2);
      // Already consumed ones are left to their first reflection; the others are taken.
      expect(await store.markConsumed("math", ["s0", "s5"], "reflection-2", { now: at(31) })).toBe(1);
      expect(await ids({ consumed: false })).toEqual(["s1", "s4", "s2"]);
      expect(await ids({ consumed: true })).toEqual(["s3", "s0", "s5"]);
      const s0 = (await store.getSelection("s0"))!.outcome!;
      expect(s0).toMatchObject({ consumedBy: "reflection-1", consumedAt: at(30).toISOString() });
      expect(await store.countOutcomes("math")).toEqual({
        served: 6,
        reported: 6,
        successes: 3,
        unconsumed: 3,
      });

      // An id without an outcome in this domain refuses the whole call.
      const error = await expectTfgrpoError(
        store.markConsumed("math", ["s1", "other"], "reflection-3"),
        "not_found",
      );
      expect(error.message).toContain("no reported outcome for other");
      expect(await ids({ consumed: false })).toEqual(["s1", "s4", "s2"]);
      await expectTfgrpoError(store.listOutcomes({ domain: "math", after: -1 }), "invalid_input");
    });

    it("credits accumulate over reports: shown counts reports, success sums rewards", async () => {
      for (let i = 0; i < 4; i++) {
        await store.recordSelection(selection(`s${i}`, { entryIds: ["G2"], explorationIds: [] }));
        await store.reportOutcome({
          selectionId: `s${i}`,
          reward: i < 3 ? 1 : 0.5,
          success: i < 3,
          ...(i > 1 ? { baseline: 0.75 } : {}),
        });
      }
      // sumDelta adds reward - baseline only for the reports that gave a baseline: (1 - 0.75) + (0.5 - 0.75).
      expect(await stats("G2")).toEqual({ shown: 4, success: 3.5, sumDelta: 0, lastUsedVersion: 1 });
      await store.recordSelection(selection("s9", { entryIds: ["G2"], explorationIds: [] }));
      await store.reportOutcome({ selectionId: "s9", reward: 1, success: true, baseline: 0.6 });
      expect((await stats("G2")).sumDelta).toBeCloseTo(0.4, 12);
    });

    it("settles a varied entry's contrast within its stratum once both arms are reported, each report once", async () => {
      // G0 varied: shown to a, b (and x, another stratum), withheld from c, d. G1 shown to all, never varied.
      const varied = (id: string, shown: boolean, stratum = "fractions") =>
        selection(id, {
          entryIds: shown ? ["G0", "G1"] : ["G1"],
          explorationIds: shown ? ["G0"] : [],
          ...(shown ? {} : { withheldIds: ["G0"] }),
          stratum,
        });
      await store.recordSelection(varied("a", true));
      expect((await store.getSelection("a"))!.selection).toEqual(varied("a", true));
      await store.recordSelection(varied("c", false));
      expect((await store.getSelection("c"))!.selection).toEqual(varied("c", false));
      await store.recordSelection(varied("c", false));
      await expectTfgrpoError(store.recordSelection(varied("c", false, "other")), "conflict");
      for (const id of ["b", "d"]) await store.recordSelection(varied(id, id === "b"));
      await store.recordSelection(varied("x", false, "geometry"));
      const report = (selectionId: string, reward: number) =>
        store.reportOutcome({ selectionId, reward, success: reward >= 0.5 });

      await report("a", 1);
      await report("b", 0.5);
      await report("x", 0); // another stratum: waits there
      expect((await stats("G0")).contrast).toBeUndefined();
      await report("c", 0); // both arms in "fractions": (1 + 0.5) / 2 - 0
      expect((await stats("G0")).contrast).toEqual({ n: 1, sum: 0.75, sumSquares: 0.5625 });
      await report("d", 0.25); // a, b were consumed: d waits alone
      expect((await stats("G0")).contrast).toEqual({ n: 1, sum: 0.75, sumSquares: 0.5625 });
      await expectTfgrpoError(report("c", 1), "conflict");
      expect((await stats("G0")).contrast).toEqual({ n: 1, sum: 0.75, sumSquares: 0.5625 });
      // The shared counters are as before: only what was shown counts.
      expect(await stats("G0")).toMatchObject({ shown: 2, success: 1.5 });
      expect((await stats("G1")).contrast).toBeUndefined();
      expect(await store.listVersionContrasts("math", "G0")).toEqual([
        { version: 1, contrast: { n: 1, sum: 0.75, sumSquares: 0.5625 } },
      ]);
      await store.recordSelection(varied("e", true));
      await report("e", 1); // pairs with d: 1 - 0.25
      expect((await stats("G0")).contrast).toEqual({ n: 2, sum: 1.5, sumSquares: 1.125 });
    });

    it("refuses a withheld entry that is also shown", async () => {
      const error = await expectTfgrpoError(
        store.recordSelection(selection("w", { withheldIds: ["G1"], stratum: "s" })),
        "invalid_input",
      );
      expect(error.message).toContain("withheldIds[0]: G1 is among the entry ids shown");
    });
  });
}
