import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import {
  criticAdvantage,
  criticReward,
  type LibrarySnapshot,
  TfgrpoError,
  type Trajectory,
} from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, quietNoise } from "@tfgrpo/sim";
import OpenAI from "openai";
import { expect, it } from "vitest";
import { createCritic } from "../src/create-critic.js";
import type { CriticReader } from "../src/critic-reader.js";
import { createCriticRole } from "../src/critic-role.js";
import { simGroup } from "./sim-rollouts.js";

const experiences = [{ id: "G0", text: "When counting integers in a closed range, include both endpoints." }];
const library: LibrarySnapshot = {
  domain: "math",
  version: 1,
  experiences: experiences.map((line) => makeExperience(line)),
};

/** What the runner's store would answer: the trajectories put here, and the one library. */
function storeReader(stored: Map<string, Trajectory>): CriticReader {
  return {
    getTrajectories: async (ids) => ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : [])),
    getLibrary: async ({ domain, version }) =>
      domain === library.domain && version === library.version ? library : null,
  };
}

it("serves reward and group advice over a real nats-server to a caller on another connection", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 11, noise: quietNoise });
  const models = createModels(
    parseModelsConfig({ roles: { critic: { baseUrl: sim.url, model: "sim-critic" } } }, { env: {} }),
    { env: {}, sleep: async () => {} },
  );
  const workerBus = await createNatsBus({
    servers: nats.url,
    name: "critic worker",
    streamPrefix: "CRITICTEST",
  });
  const callerBus = await createNatsBus({ servers: nats.url, name: "runner", streamPrefix: "CRITICTEST" });
  const stored = new Map<string, Trajectory>();
  const served = await createCriticRole(createCritic({ models }), storeReader(stored)).serve(workerBus);
  try {
    // The same task and seeds as the sim test's third group, whose attempts disagree.
    const task = createSuite({ domain: "math", seed: 11, size: 3, split: "train" })[2]!;
    const client = new OpenAI({ baseURL: sim.url, apiKey: "sim", maxRetries: 3 });
    const rollouts = await simGroup({
      client,
      task,
      runId: "run-nats",
      groupId: "g-nats",
      size: 4,
      experiences,
      seed: 2000,
    });

    for (const t of rollouts) stored.set(t.id, t);
    const reward = await callerBus.request(criticReward, {
      task,
      groupId: "g-nats",
      trajectoryIds: rollouts.map((t) => t.id),
    });
    expect(reward.rewards.map((r) => r.trajectoryId)).toEqual(rollouts.map((t) => t.id));
    expect(reward.usage).toBeUndefined();
    const trajectories: Trajectory[] = rollouts.map((t, i) => ({ ...t, reward: reward.rewards[i]!.reward }));
    expect(new Set(trajectories.map((t) => t.reward)).size).toBe(2);
    for (const t of trajectories) stored.set(t.id, t);

    const advice = await callerBus.request(criticAdvantage, {
      runId: "run-nats",
      groupId: "g-nats",
      task,
      trajectoryIds: trajectories.map((t) => t.id),
      library: { domain: "math", version: 1 },
    });
    expect(advice.skipped).toBeNull();
    expect(advice.summaries).toHaveLength(4);
    expect(advice.proposals.length).toBeGreaterThan(0);
    expect(
      advice.proposals.every((p, i) => p.proposalId === `g-nats:P${i + 1}` && p.taskId === task.id),
    ).toBe(true);
    expect(advice.usage?.calls).toBe(5);

    const same = trajectories.map((t) => ({ ...t, id: `${t.id}-same`, groupId: "g-same", reward: 1 }));
    for (const t of same) stored.set(t.id, t);
    const homogeneous = await callerBus.request(criticAdvantage, {
      runId: "run-nats",
      groupId: "g-same",
      task,
      trajectoryIds: same.map((t) => t.id),
      library: { domain: "math", version: 1 },
    });
    expect(homogeneous.skipped).toContain("std = 0");

    // A refused call comes back as the critic's error, rebuilt on the caller's side.
    const { answer: _answer, ...noAnswer } = task;
    const error = await callerBus
      .request(criticReward, {
        task: noAnswer,
        groupId: "g-none",
        trajectoryIds: [],
        groundTruth: "required",
      })
      .catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "invalid_input")).toBe(true);
    expect((error as Error).message).toContain(`task ${task.id} has no ground-truth answer`);
  } finally {
    await served.close();
    await callerBus.close();
    await workerBus.close();
  }
});
