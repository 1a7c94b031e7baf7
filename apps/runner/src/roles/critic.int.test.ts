// `tfgrpo serve --role critic --nats URL` as a separate process, against a real nats-server and the SIMULATED model
// server: this process plays the runner and calls the critic's subjects over NATS.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import {
  criticAdvantage,
  criticReward,
  libraryGet,
  type Task,
  type Trajectory,
  trajectoryGet,
} from "@tfgrpo/protocol";
import {
  makeCodeTrajectory,
  makeExperience,
  makeTrajectory,
  temporaryDirectory,
} from "@tfgrpo/protocol/testing";
import { createSimServer, quietNoise } from "@tfgrpo/sim";
import { expect, it } from "vitest";
import { startRoleWorker } from "../testing/start-role-worker.js";
import { loadCriticSettings } from "./critic.js";

it("tfgrpo serve --role critic answers reward and group advice over NATS, with settings from TFGRPO_CRITIC_CONFIG", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 5, noise: quietNoise });
  await using dir = await temporaryDirectory("tfgrpo-critic-role-");
  // A user reward module for domain "web", named relative to the settings file.
  await writeFile(
    path.join(dir.path, "web-reward.mjs"),
    "export default (task, answer) => (answer === task.answer ? 1 : 0);",
  );
  await writeFile(path.join(dir.path, "critic.yaml"), "judgeSamples: 1\nrewards:\n  web: ./web-reward.mjs\n");
  await using worker = await startRoleWorker(
    "critic",
    ["--nats", nats.url, "--config", "examples/models.sim.yaml"],
    {
      env: {
        SIM_PORT: String(sim.port),
        TFGRPO_CRITIC_CONFIG: path.join(dir.path, "critic.yaml"),
        TFGRPO_NATS_URL: "",
      },
    },
  );
  const runner = await createNatsBus({ servers: nats.url, name: "critic-role-test" });
  // The runner's served reads: the critic is sent ids and reads trajectories and the library from here.
  const stored = new Map<string, Trajectory>();
  const library = {
    domain: "math",
    version: 1,
    experiences: [
      makeExperience({ id: "G0", text: "When counting integers in a closed range, include both endpoints." }),
    ],
  };
  await runner.handle(trajectoryGet, async ({ ids }) => ({
    trajectories: ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : [])),
  }));
  await runner.handle(libraryGet, async ({ domain, version }) =>
    domain === "math" && version === 1 ? library : null,
  );
  const store = (...trajectories: Trajectory[]) => {
    for (const trajectory of trajectories) stored.set(trajectory.id, trajectory);
    return trajectories.map((trajectory) => trajectory.id);
  };
  try {
    expect(worker.output.stderr).toContain(
      "tfgrpo.critic.reward (requests), tfgrpo.critic.advantage (requests)",
    );

    const task: Task = {
      id: "t-count",
      domain: "math",
      question: "How many integers n satisfy 3 <= n <= 10?",
      answer: "8",
    };
    const reward = await runner.request(criticReward, {
      task,
      groupId: "g1",
      trajectoryIds: store(
        makeCodeTrajectory({ id: "a", attempt: 0, final: "\\boxed{8}" }),
        makeCodeTrajectory({ id: "b", attempt: 1, final: "\\boxed{7}" }),
      ),
    });
    expect(reward.rewards.map((r) => [r.trajectoryId, r.reward, r.method])).toEqual([
      ["a", 1, "math"],
      ["b", 0, "math"],
    ]);
    const web = await runner.request(criticReward, {
      task: { id: "w", domain: "web", question: "Who?", answer: "Ada" },
      groupId: "g-web",
      trajectoryIds: store(makeTrajectory({ id: "c", taskId: "w", finalAnswer: "Ada" })),
    });
    expect(web.rewards[0]).toMatchObject({ reward: 1, method: "module:web-reward.mjs" });

    const advice = await runner.request(criticAdvantage, {
      runId: "run-role",
      groupId: "g1",
      task,
      trajectoryIds: store(
        makeCodeTrajectory({ id: "a", attempt: 0, reward: 1, grade: "pass" }),
        makeCodeTrajectory({ id: "b", attempt: 1, reward: 0, grade: "fail", final: "I get 7.\n\\boxed{7}" }),
      ),
      library: { domain: "math", version: 1 },
    });
    // Two summaries and one advantage call on the sim critic, whatever it proposed.
    expect(advice.summaries.map((s) => s.trajectoryId)).toEqual(["a", "b"]);
    expect(advice.usage?.calls).toBe(3);
    expect(sim.stats().byKind["trajectory-summary"]).toBe(2);
    expect(sim.stats().byKind["group-advantage"]).toBe(1);
  } finally {
    await runner.close();
  }
});

it("reads critic settings and rejects unknown keys, naming the file", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-critic-settings-");
  const dir = temporary.path;
  await writeFile(
    path.join(dir, "ok.json"),
    JSON.stringify({ pseudoLabelJudge: true, rewards: { web: "r.ts" } }),
  );
  expect(await loadCriticSettings(path.join(dir, "ok.json"))).toEqual({
    pseudoLabelJudge: true,
    rewards: { web: path.join(dir, "r.ts") },
  });
  await writeFile(path.join(dir, "bad.yaml"), "judgeSample: 3\n");
  await expect(loadCriticSettings(path.join(dir, "bad.yaml"))).rejects.toThrow(/bad\.yaml: .*judgeSample/);
});
