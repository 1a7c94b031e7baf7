import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ServedSelection } from "../outcome-store.js";
import type { Store } from "../store.js";
import { at, seedThreeEntries } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

const hour = 3_600_000;
const day = 24 * hour;

const selection = (id: string, servedAt: Date, extra: Partial<ServedSelection> = {}): ServedSelection => ({
  selectionId: id,
  domain: "math",
  version: 1,
  entryIds: ["G1", "G0"],
  explorationIds: ["G0"],
  withheldIds: ["G2"],
  task: `task of ${id}`,
  servedAt: servedAt.toISOString(),
  ...extra,
});

/**
 * The conformance suite of report deadlines and retention (`RetentionStore`): "no report" is its own count and
 * refuses a late report, compaction keeps the totals and the protected rows, and bounds the live rows.
 */
export function retentionContractTests(name: string, createFresh: () => Promise<Store>): void {
  describe(`retention contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await createFresh();
      await seedThreeEntries(store);
    });
    afterEach(async () => {
      await store.close();
    });

    it("counts a selection not reported within the deadline as no report, never as a failure, and refuses its late report", async () => {
      const t = at(0);
      await store.recordSelection(selection("late", t));
      await store.recordSelection(selection("fresh", new Date(t.getTime() + 2 * hour)));
      await store.recordSelection(selection("done", t));
      await store.reportOutcome({ selectionId: "done", reward: 0, success: false }, { now: at(10) });
      const now = new Date(t.getTime() + 2.5 * hour);
      // Query time: past the deadline counts before any sweep.
      expect(await store.outcomeStats("math", { reportDeadlineMs: hour, now })).toMatchObject({
        served: 3,
        reported: 1,
        successes: 0,
        noReport: 1,
        awaiting: 1,
      });
      // A late report through a deadline is refused and changes nothing.
      const late = await expectTfgrpoError(
        store.reportOutcome({ selectionId: "late", reward: 1, success: true }, { now, deadlineMs: hour }),
        "conflict",
      );
      expect(late.message).toContain("counts as no report");
      // The sweep marks it; then even a report without a deadline is refused.
      expect(await store.expireSelections({ deadlineMs: hour, now })).toBe(1);
      expect(await store.expireSelections({ deadlineMs: hour, now })).toBe(0);
      await expectTfgrpoError(
        store.reportOutcome({ selectionId: "late", reward: 1, success: true }),
        "conflict",
      );
      const head = await store.getHead("math");
      expect(head!.experiences.find((e) => e.id === "G1")!.stats.shown).toBe(1);
      expect(await store.countOutcomes("math")).toMatchObject({ served: 3, reported: 1, successes: 0 });
      // The fresh one can still be reported.
      await store.reportOutcome(
        { selectionId: "fresh", reward: 1, success: true },
        { now, deadlineMs: hour },
      );
      expect(await store.outcomeStats("math", { reportDeadlineMs: hour, now })).toMatchObject({
        served: 3,
        reported: 2,
        successes: 1,
        noReport: 1,
        awaiting: 0,
      });
    });

    it("compacts old outcomes into aggregates: totals stay, the latest and a canary's rows stay, live rows are bounded", async () => {
      const start = at(0);
      const n = 30;
      for (let i = 0; i < n; i++) {
        const servedAt = new Date(start.getTime() + i * hour);
        await store.recordSelection(selection(`s${i}`, servedAt));
        await store.reportOutcome(
          {
            selectionId: `s${i}`,
            reward: i % 3 === 0 ? 1 : 0,
            success: i % 3 === 0,
            trajectory: [{ role: "assistant", content: `answer ${i}` }],
          },
          { now: new Date(servedAt.getTime() + 60_000) },
        );
      }
      // Two never reported.
      await store.recordSelection(selection("lost1", start));
      await store.recordSelection(selection("lost2", start, { entryIds: ["G1"], explorationIds: [] }));
      const before = await store.countOutcomes("math");
      const now = new Date(start.getTime() + 40 * day);
      const result = await store.applyRetention(
        {
          reportDeadlineMs: hour,
          outcomeMaxAgeDays: 30,
          keepLatestOutcomes: 5,
          maxOutcomesPerDomain: 20,
          trajectoryMaxAgeDays: 7,
          unreportedMaxAgeDays: 1,
          batchSize: 7,
        },
        now,
      );
      expect(result).toMatchObject({ expired: 2, compactedOutcomes: 25, compactedUnreported: 2 });
      expect(result.batches).toBeGreaterThan(4);
      const live = await store.listOutcomes({ domain: "math" });
      expect(live.map((o) => o.selectionId)).toEqual(["s25", "s26", "s27", "s28", "s29"]);
      expect(live.every((o) => o.trajectory !== null)).toBe(true);
      expect(await store.countOutcomes("math")).toMatchObject({
        served: before.served,
        reported: before.reported,
        successes: before.successes,
      });
      const stats = await store.outcomeStats("math", { reportDeadlineMs: hour, now });
      expect(stats).toMatchObject({
        served: 32,
        reported: 30,
        successes: 10,
        noReport: 2,
        awaiting: 0,
        compacted: 27,
        liveOutcomes: 5,
      });
      expect(stats.byVersion).toEqual([
        { version: 1, served: 32, reported: 30, successes: 10, rewardSum: 10, noReport: 2 },
      ]);
      const exposure = await store.listEntryExposure("math");
      const g0 = exposure.find((e) => e.entryId === "G0")!;
      const g1 = exposure.find((e) => e.entryId === "G1")!;
      const g2 = exposure.find((e) => e.entryId === "G2")!;
      // 25 reported + lost1 showed G0 and G1; lost2 showed only G1.
      expect(g0).toEqual({
        entryId: "G0",
        version: 1,
        shown: 26,
        explored: 26,
        withheld: 0,
        reported: 25,
        rewardSum: 9,
      });
      expect(g1).toMatchObject({ shown: 27, explored: 0, reported: 25 });
      expect(g2).toMatchObject({ shown: 0, withheld: 27 });
      // Again: nothing more to do, nothing counted twice.
      expect(
        await store.applyRetention({ keepLatestOutcomes: 5, maxOutcomesPerDomain: 20 }, now),
      ).toMatchObject({
        compactedOutcomes: 0,
        compactedUnreported: 0,
      });
      expect((await store.outcomeStats("math", { now })).served).toBe(32);
    });

    it("never compacts what the domain's online learner has not read yet, nor what its canary compares", async () => {
      const start = at(0);
      for (let i = 0; i < 20; i++) {
        const servedAt = new Date(start.getTime() + i * hour);
        await store.recordSelection(selection(`s${i}`, servedAt));
        await store.reportOutcome(
          { selectionId: `s${i}`, reward: 1, success: true },
          { now: new Date(servedAt.getTime() + 60_000) },
        );
      }
      const seqs = (await store.listOutcomes({ domain: "math" })).map((o) => o.seq);
      const lease = { holder: "learner-a", host: "h", pid: 1, ttlMs: 60_000, now: start };
      expect((await store.acquireLearnerLease("math", lease)).acquired).toBe(true);
      // The learner has read up to s11; its canary started after s7: s8 onwards must stay.
      await store.saveLearnerState(
        "math",
        "learner-a",
        { cursor: seqs[11], canary: { version: 2, parent: 1, startCursor: seqs[7] } },
        start,
      );
      const now = new Date(start.getTime() + 60 * day);
      const policy = { outcomeMaxAgeDays: 30, keepLatestOutcomes: 1, maxOutcomesPerDomain: 1 };
      expect(await store.applyRetention(policy, now)).toMatchObject({ compactedOutcomes: 8 });
      expect((await store.listOutcomes({ domain: "math" })).map((o) => o.selectionId)[0]).toBe("s8");
      // The canary decided, the learner caught up: what it has read may go, the rest stays.
      await store.saveLearnerState("math", "learner-a", { cursor: seqs[15], canary: null }, start);
      expect(await store.applyRetention(policy, now)).toMatchObject({ compactedOutcomes: 8 });
      expect((await store.listOutcomes({ domain: "math" })).map((o) => o.selectionId)).toEqual([
        "s16",
        "s17",
        "s18",
        "s19",
      ]);
    });

    it("never compacts a canary's outcomes or those after its first, and drops only old trajectories", async () => {
      const start = at(0);
      // v2 proposed: the canary.
      await store.applyOperations("math", [{ op: "add", text: "Draw a figure.", reason: "canary" }], {
        parent: 1,
        state: "proposed",
      });
      for (let i = 0; i < 12; i++) {
        const servedAt = new Date(start.getTime() + i * day);
        await store.recordSelection(selection(`s${i}`, servedAt, { version: i >= 6 && i % 2 === 0 ? 2 : 1 }));
        await store.reportOutcome(
          { selectionId: `s${i}`, reward: 1, success: true, trajectory: { i } },
          { now: servedAt },
        );
      }
      const now = new Date(start.getTime() + 100 * day);
      const result = await store.applyRetention(
        { keepLatestOutcomes: 1, maxOutcomesPerDomain: 2, outcomeMaxAgeDays: 30, trajectoryMaxAgeDays: 7 },
        now,
      );
      // s0..s5 compacted; from s6 (the canary's first) on everything stays, trajectories included.
      expect(result.compactedOutcomes).toBe(6);
      expect(result.trajectoriesDropped).toBe(0);
      const live = await store.listOutcomes({ domain: "math" });
      expect(live.map((o) => o.selectionId)).toEqual(["s6", "s7", "s8", "s9", "s10", "s11"]);
      // Once decided, the canary's rows may go; trajectories of protected-but-old rows are not dropped before that.
      await store.setVersionState("math", 2, "rejected");
      const after = await store.applyRetention(
        {
          keepLatestOutcomes: 2,
          maxOutcomesPerDomain: 1_000,
          outcomeMaxAgeDays: 95,
          trajectoryMaxAgeDays: 90,
        },
        now,
      );
      expect(after.compactedOutcomes).toBe(0);
      expect(after.trajectoriesDropped).toBe(4);
      const trimmed = await store.listOutcomes({ domain: "math" });
      expect(trimmed.map((o) => o.trajectory === null)).toEqual([true, true, true, true, false, false]);
      expect((await store.outcomeStats("math", { now })).byVersion).toEqual([
        { version: 1, served: 9, reported: 9, successes: 9, rewardSum: 9, noReport: 0 },
        { version: 2, served: 3, reported: 3, successes: 3, rewardSum: 3, noReport: 0 },
      ]);
    });

    it("refuses a policy with a zero or negative bound", async () => {
      await expectTfgrpoError(store.applyRetention({ batchSize: 0 }), "invalid_config");
      await expectTfgrpoError(
        store.applyRetention({ keepLatestOutcomes: 10, maxOutcomesPerDomain: 5 }),
        "invalid_config",
      );
    });
  });
}
