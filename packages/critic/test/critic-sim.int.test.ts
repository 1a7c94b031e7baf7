import { createModels, type Models, parseModelsConfig } from "@tfgrpo/models";
import { startScriptedOpenAIServer } from "@tfgrpo/models/testing";
import type { GroupAdviceResult, Task, Trajectory } from "@tfgrpo/protocol";
import { createSimServer, createSuite, quietNoise, type SimServer } from "@tfgrpo/sim";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Critic, createCritic } from "../src/create-critic.js";
import { filterGroups } from "../src/group-filter.js";
import { verifyMath } from "../src/math/verify-math.js";
import { createJudge } from "../src/rewards/create-judge.js";
import { simGroup } from "./sim-rollouts.js";

// Real experience lines (DeepSeek, the paper's reference implementation) as the current library.
const experiences = [
  { id: "G0", text: "When counting integers in a closed range, include both endpoints." },
  {
    id: "G1",
    text: "Trigonometric simplification: identify complementary angle pairs before numerical computation.",
  },
];
const groupSize = 4;
const worldSeed = 11;

function modelsFor(server: { url: string }): Models {
  const config = parseModelsConfig(
    {
      roles: {
        critic: { baseUrl: server.url, model: "sim-critic", maxRetries: 2, timeoutMs: 20_000 },
        judge: { baseUrl: server.url, model: "sim-judge", maxRetries: 2, timeoutMs: 20_000 },
      },
    },
    { env: {} },
  );
  return createModels(config, { sleep: async () => {}, env: {} });
}

interface Group {
  task: Task;
  groupId: string;
  trajectories: Trajectory[];
}

/** Rollouts from the sim, rewarded by the critic's math verifier: the input of stage 1 + 2. */
async function rewardedGroups(actor: SimServer, critic: Critic, tasks: Task[]): Promise<Group[]> {
  // Retries as the real actor has them: a reused keep-alive socket can be reset under load.
  const client = new OpenAI({ baseURL: actor.url, apiKey: "sim", maxRetries: 3 });
  return Promise.all(
    tasks.map(async (task, index) => {
      const groupId = `run-sim:s0:${task.id}`;
      const rollouts = await simGroup({
        client,
        task,
        runId: "run-sim",
        groupId,
        size: groupSize,
        experiences,
        seed: 1000 * index,
      });
      const { rewards } = await critic.reward(
        task,
        rollouts.map((trajectory) => ({ trajectoryId: trajectory.id, finalAnswer: trajectory.finalAnswer })),
      );
      const trajectories = rollouts.map((trajectory, attempt) => ({
        ...trajectory,
        reward: rewards[attempt]!.reward,
        rewardInfo: {
          grade: rewards[attempt]!.grade,
          method: rewards[attempt]!.method,
          extracted: rewards[attempt]!.extracted,
        },
      }));
      return { task, groupId, trajectories };
    }),
  );
}

const advise = (critic: Critic, groups: Group[]) =>
  Promise.all(
    groups.map((group) =>
      critic.groupAdvice({
        runId: "run-sim",
        groupId: group.groupId,
        task: group.task,
        trajectories: group.trajectories,
        experiences,
      }),
    ),
  );

describe("critic over the sim model server (SIMULATED world)", () => {
  let actor: SimServer;
  let groups: Group[];
  let clean: GroupAdviceResult[];

  beforeAll(async () => {
    actor = await createSimServer({ seed: worldSeed, noise: quietNoise });
    const tasks = createSuite({ domain: "math", seed: worldSeed, size: 8, split: "train" });
    const critic = createCritic({ models: modelsFor(actor) });
    groups = await rewardedGroups(actor, critic, tasks);
    clean = await advise(critic, groups);
  });
  afterAll(async () => {
    await actor?.close();
  });

  it("rewards real sim rollouts with the math verifier and finds both kinds of groups", () => {
    const { kept, skippedCount } = filterGroups(
      groups.map((group) => ({ groupId: group.groupId, rewards: group.trajectories.map((t) => t.reward!) })),
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(skippedCount).toBeGreaterThan(0);
  });

  it("skips homogeneous groups without a model call, and proposes only from mixed groups", async () => {
    const mixed = new Set(
      groups.filter((g) => new Set(g.trajectories.map((t) => t.reward)).size > 1).map((g) => g.groupId),
    );
    for (const result of clean) {
      if (mixed.has(result.groupId)) {
        expect(result.skipped).toBeNull();
        expect(result.summaries).toHaveLength(groupSize);
        expect(result.summaries.every((s) => /^Step 1: /.test(s.summary))).toBe(true);
      } else {
        expect(result).toMatchObject({
          summaries: [],
          proposals: [],
          skipped: expect.stringContaining("std = 0"),
        });
        expect(result.usage?.calls).toBe(0);
      }
    }
    const proposals = clean.flatMap((result) => result.proposals);
    expect(proposals.length).toBeGreaterThan(0);
    expect(proposals.every((proposal) => mixed.has(proposal.groupId))).toBe(true);
    for (const result of clean) expect(result.proposals.length).toBeLessThanOrEqual(3);
  });

  it("repairs or retries malformed JSON from the critic model and ends with the same proposals", async () => {
    await using faulty = await createSimServer({
      seed: worldSeed,
      noise: quietNoise,
      faults: { rate: 0.6, kinds: { malformedJson: true } },
    });
    const results = await advise(createCritic({ models: modelsFor(faulty) }), groups);
    expect(faulty.stats().faults.malformedJson).toBeGreaterThan(0);
    expect(results.map((r) => [r.skipped, r.proposals])).toEqual(clean.map((r) => [r.skipped, r.proposals]));
  });

  it("skips a group whose advantage stays unusable, with the reason logged, instead of failing the step", async () => {
    // The advantage model answers prose instead of JSON, every time: nothing to repair, retries do not help.
    // (Sim faults are all repairable; a scripted OpenAI-compatible server plays the hopeless model.)
    await using hopeless = await startScriptedOpenAIServer();
    hopeless.handle(() => ({ kind: "chat", content: "I would add an experience about endpoints, I think." }));
    const cleanModels = modelsFor(actor);
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const critic = createCritic({
      models: { complete: cleanModels.complete, structured: modelsFor(hopeless).structured },
      logger: { warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }) },
    });
    const results = await advise(critic, groups);
    const mixed = results.filter((r) => !r.skipped?.includes("std = 0"));
    expect(mixed.length).toBeGreaterThan(0);
    for (const result of mixed) {
      expect(result.proposals).toEqual([]);
      expect(result.skipped).toMatch(
        /^group advantage unusable: critic \(sim-critic\): no valid group_advantage after 3 attempts/,
      );
      expect(result.summaries).toHaveLength(groupSize);
      expect(result.usage?.calls).toBe(groupSize + 3);
    }
    const warned = warnings
      .filter((w) => w.message === "critic advantage unusable")
      .map((w) => String(w.fields?.groupId));
    expect(warned.sort()).toEqual(mixed.map((r) => r.groupId).sort());
  });

  it("drops the noisy critic's operations on ids that are not in the library, and logs them", async () => {
    await using noisy = await createSimServer({
      seed: worldSeed,
      noise: { ...quietNoise, critic: { ...quietNoise.critic, wrongId: 1 } },
    });
    const dropped: Record<string, unknown>[] = [];
    const critic = createCritic({
      models: modelsFor(noisy),
      logger: {
        warn: (message, fields) => (message === "critic operation dropped" ? dropped.push(fields ?? {}) : 0),
      },
    });
    const results = await advise(critic, groups);
    expect(dropped.length).toBeGreaterThan(0);
    expect(
      dropped.every((fields) => /is not among the current experiences/.test(String(fields.reason))),
    ).toBe(true);
    const known = new Set(experiences.map((e) => e.id));
    for (const proposal of results.flatMap((r) => r.proposals)) {
      if (proposal.op !== "add") expect(known.has(proposal.id!)).toBe(true);
    }
  });

  it("learns without ground truth: majority pseudo-labels, flagged, and said to be a vote in the prompts", async () => {
    const critic = createCritic({ models: modelsFor(actor) });
    const group = groups.find((g) => new Set(g.trajectories.map((t) => t.reward)).size > 1)!;
    const { answer: _answer, ...task } = group.task;
    const reply = await critic.reward(
      task,
      group.trajectories.map((t) => ({ trajectoryId: t.id, finalAnswer: t.finalAnswer })),
    );
    expect(reply.pseudoLabel).not.toBeNull();
    expect(reply.rewards.every((r) => r.pseudoLabel === true && r.method === "math+majority")).toBe(true);
    // Reward 1 exactly for the answers that agree with the label.
    expect(reply.rewards.map((r) => r.reward)).toEqual(
      group.trajectories.map((t) => (verifyMath(reply.pseudoLabel!, t.finalAnswer).reward === 1 ? 1 : 0)),
    );
    const relabelled = group.trajectories.map((t, index) => ({ ...t, reward: reply.rewards[index]!.reward }));
    const advice = await critic.groupAdvice({
      runId: "run-sim",
      groupId: group.groupId,
      task,
      trajectories: relabelled,
      experiences,
      pseudoLabel: reply.pseudoLabel,
    });
    expect(advice.skipped).toBeNull();
    expect(advice.summaries.some((s) => s.summary.includes(`ground truth ${reply.pseudoLabel}`))).toBe(true);
  });

  it("grades with the sim judge (majority of 3 at temperature 0) as the verifier does", async () => {
    const models = modelsFor(actor);
    const critic = createCritic({ models, judge: createJudge({ models, samples: 3 }) });
    const group = groups.find((g) => new Set(g.trajectories.map((t) => t.reward)).size > 1)!;
    const reply = await critic.reward(
      { ...group.task, meta: { reward: "judge" } },
      group.trajectories.map((t) => ({ trajectoryId: t.id, finalAnswer: t.finalAnswer })),
    );
    expect(reply.rewards.map((r) => r.reward)).toEqual(group.trajectories.map((t) => t.reward));
    expect(reply.rewards.every((r) => r.method === "judge")).toBe(true);
    expect(reply.usage.calls).toBe(3 * groupSize);
  });
});
