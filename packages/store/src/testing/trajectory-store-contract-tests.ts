import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TrajectoryStore } from "../trajectory-store.js";
import type { TrajectoryTestStore } from "./contract-helpers.js";
import { expectTfgrpoError, makeTrajectory } from "./fixtures.js";

/** The conformance suite of a `TrajectoryStore` backend: trajectories and usage. */
export function trajectoryStoreContractTests(
  name: string,
  createFresh: () => Promise<TrajectoryTestStore>,
): void {
  describe(`trajectory store contract: ${name}`, () => {
    let store: TrajectoryTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
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
      const ids = async (filter: Parameters<TrajectoryStore["listTrajectories"]>[0]) =>
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
        store.putTrajectories([makeTrajectory({ id: "t6" }), { ...makeTrajectory({ id: "t7" }), reward: 3 }]),
        "invalid_input",
      );
      expect(bad.message).toMatch(/trajectories\[1\] \(t7\): reward/);
      expect(await store.getTrajectory("t6")).toBeNull();
    });

    describe("a redelivered result (the same rollout again) never erases its reward", () => {
      const result = (attempt: number) =>
        makeTrajectory({ id: `g1/${attempt}`, groupId: "g1", taskId: "a", attempt, epoch: 0, step: 1 });
      const rewarded = (attempt: number, reward = attempt === 0 ? 1 : 0) => ({
        ...result(attempt),
        reward,
        rewardInfo: {
          grade: reward === 1 ? ("pass" as const) : ("fail" as const),
          extracted: "4",
          method: "exact",
        },
      });
      const group = [0, 1, 2].map(result);
      /** The reward phase: reads the group, rewards it, writes the rewarded copies (in between: `meanwhile`). */
      const rewardPhase = async (meanwhile: () => Promise<unknown> = async () => {}) => {
        const read = await store.listTrajectories({ groupId: "g1" });
        await meanwhile();
        return store.putTrajectories(read.map((t) => rewarded(t.attempt)));
      };
      const expectRewarded = async () =>
        expect(await store.listTrajectories({ groupId: "g1" })).toEqual([0, 1, 2].map((a) => rewarded(a)));

      it("before the reward phase: stored once, then rewarded", async () => {
        expect(await store.putTrajectories(group)).toBe(3);
        await store.putTrajectories([result(1)]);
        expect(await store.countTrajectories({ groupId: "g1" })).toBe(3);
        expect(await rewardPhase()).toBe(3);
        await expectRewarded();
      });

      it("during the reward phase: between its read and its write, and at the same time as its write", async () => {
        await store.putTrajectories(group);
        expect(await rewardPhase(() => store.putTrajectories([result(0), result(2)]))).toBe(3);
        await expectRewarded();
        // Racing the reward's write, in either order: whichever lands last, the rewards stay.
        const rereward = [0, 1, 2].map((a) => rewarded(a));
        await Promise.all([store.putTrajectories([result(1)]), store.putTrajectories(rereward)]);
        await Promise.all([store.putTrajectories(rereward), store.putTrajectories([result(1)])]);
        await expectRewarded();
      });

      it("after the reward phase (and after compaction): a no-op, the stored copy kept as it was", async () => {
        await store.putTrajectories(group);
        await rewardPhase();
        expect(await store.putTrajectories([result(0)])).toBe(0);
        expect(await store.putTrajectories(group)).toBe(0);
        await expectRewarded();
        expect(await store.compactRunTrajectories("run-1", { throughStep: 1 })).toBe(3);
        const compacted = await store.listTrajectories({ groupId: "g1" });
        expect(await store.putTrajectories(group)).toBe(0);
        expect(await store.listTrajectories({ groupId: "g1" })).toEqual(compacted);
        expect(compacted.map((t) => [t.reward, t.rewardInfo?.grade, t.messages.length])).toEqual([
          [1, "pass", 0],
          [0, "fail", 0],
          [0, "fail", 0],
        ]);
      });

      it("a copy given twice in one call keeps its reward; a new reward and a redone unrewarded rollout still replace", async () => {
        await store.putTrajectories([rewarded(0), result(0), result(1), rewarded(1)]);
        expect((await store.listTrajectories({ groupId: "g1" })).map((t) => t.reward)).toEqual([1, 0]);
        // Re-rewarding (a pooled label) replaces the reward.
        expect(await store.putTrajectories([rewarded(1, 1)])).toBe(1);
        expect((await store.getTrajectory("g1/1"))?.rewardInfo?.grade).toBe("pass");
        // An unrewarded copy (an infrastructure failure) is replaced by the rollout redone.
        const failed = { ...result(2), stopReason: "error" as const, finalAnswer: null, error: "bus closed" };
        await store.putTrajectories([failed]);
        expect(await store.putTrajectories([result(2)])).toBe(1);
        expect(await store.getTrajectory("g1/2")).toEqual(result(2));
      });
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

    it("compacts a run's trajectories of the steps asked: text dropped, rewards, ids and usage kept; repeatable", async () => {
      const bulky = (id: string, step: number, runId = "run-1") => ({
        ...makeTrajectory({ id, runId, groupId: `g${step}`, taskId: "a", attempt: 0, epoch: 0, step }),
        reward: 0.5,
        messages: [
          { role: "user" as const, content: "What is 6 x 7? ".repeat(200) },
          {
            role: "assistant" as const,
            content: "Let me think. ".repeat(200),
            reasoning: "long ".repeat(300),
          },
        ],
        toolCalls: [
          {
            id: "c1",
            name: "python",
            input: { code: "print(6*7)" },
            output: "42\n".repeat(100),
            truncated: false,
            durationMs: 12,
          },
        ],
        finalAnswer: "42",
        experiencesShown: ["G1"],
        experiencesCited: ["G1"],
      });
      const stored = [bulky("s1", 1), bulky("s2", 2), bulky("s3", 3), bulky("other", 1, "run-2")];
      await store.putTrajectories(stored);
      expect(await store.compactRunTrajectories("run-1", { fromStep: 1, throughStep: 2 })).toBe(2);
      // Compacting again changes nothing; the other steps and the other run keep their text.
      expect(await store.compactRunTrajectories("run-1", { throughStep: 2 })).toBe(0);
      const [s1, s2, s3] = await store.listTrajectories({ runId: "run-1" });
      for (const compacted of [s1!, s2!]) {
        const original = stored.find((t) => t.id === compacted.id)!;
        expect(compacted).toMatchObject({
          id: original.id,
          runId: "run-1",
          taskId: "a",
          groupId: original.groupId,
          step: original.step,
          reward: 0.5,
          finalAnswer: "42",
          usage: original.usage,
          experiencesShown: ["G1"],
          experiencesCited: ["G1"],
          messages: [],
        });
        expect(compacted.toolCalls).toEqual([
          { id: "c1", name: "python", input: null, output: "", truncated: true, durationMs: 12 },
        ]);
        expect(JSON.stringify(compacted).length).toBeLessThan(JSON.stringify(original).length / 5);
      }
      expect(s3).toEqual(stored[2]);
      expect(await store.getTrajectory("other")).toEqual(stored[3]);
    });
  });
}
