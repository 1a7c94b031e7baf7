// `tfgrpo serve --role actor --nats URL --concurrency N` as a separate process, against a real nats-server and the
// SIMULATED model server: this process plays the runner (it enqueues rollouts and serves library reads).
import { readFileSync } from "node:fs";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import {
  actorRollout,
  type Experience,
  emptyExperienceStats,
  type JobResult,
  type LibrarySnapshot,
  libraryGet,
  type RolloutRequest,
  type Trajectory,
} from "@tfgrpo/protocol";
import { eventually } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite } from "@tfgrpo/sim";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { expect, it } from "vitest";
import { startRoleWorker } from "../testing/start-role-worker.js";

function mathLibrary(): LibrarySnapshot {
  const entries = JSON.parse(readFileSync(realLibraryPath("math"), "utf8")) as Record<string, string>;
  const experiences: Experience[] = Object.entries(entries).map(([id, text]) => ({
    id,
    domain: "math",
    text,
    status: "active",
    stats: emptyExperienceStats(),
    provenance: { runId: null, version: 1, fromOps: [] },
    history: [],
    createdAt: "2025-11-01T00:00:00.000Z",
    updatedAt: "2025-11-01T00:00:00.000Z",
  }));
  return { domain: "math", version: 1, experiences };
}

it("tfgrpo serve --role actor works rollouts from the queue with libraries read over the Bus", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 3 });
  await using worker = await startRoleWorker(
    "actor",
    ["--nats", nats.url, "--config", "examples/models.sim.yaml", "--concurrency", "2"],
    {
      env: {
        SIM_PORT: String(sim.port),
        // No search settings: the worker finds the corpus of the sim server its model runs on.
        TFGRPO_SIM_CORPUS_URL: "",
        TFGRPO_ACTOR_CONFIG: "",
        TFGRPO_NATS_URL: "",
      },
    },
  );
  const runner = await createNatsBus({ servers: nats.url, name: "actor-role-test" });
  try {
    const library = mathLibrary();
    await runner.handle(libraryGet, async ({ domain, version }) =>
      domain === "math" && (version === 1 || version === "head") ? library : null,
    );

    const math = createSuite({ domain: "math", seed: 3, size: 3, split: "train" });
    const [web] = createSuite({ domain: "web", seed: 3, size: 1, split: "train" });
    const requests: RolloutRequest[] = [
      ...math.map((task, index) => ({
        runId: "run-role",
        task,
        groupId: task.id,
        attempt: index,
        library: { domain: "math", version: 1 },
      })),
      { runId: "run-role", task: web!, groupId: web!.id, attempt: 0, library: null },
    ];
    const results: JobResult<Trajectory>[] = [];
    await runner.consumeResults(actorRollout, "run-role", async (result) => {
      results.push(result);
    });
    await runner.enqueue(
      actorRollout,
      requests.map((input) => ({ id: `${input.task.id}#${input.attempt}`, input })),
      { replyTo: "run-role" },
    );
    await eventually("all rollouts", () => results.length === requests.length, 120_000);

    const trajectories = results.map((result) => {
      expect(result.ok, result.ok ? "" : result.error.message).toBe(true);
      return (result as { output: Trajectory }).output;
    });
    for (const trajectory of trajectories) expect(trajectory.stopReason, trajectory.error).toBe("answered");
    const mathTrajectories = trajectories.filter((trajectory) => trajectory.domain === "math");
    expect(mathTrajectories).toHaveLength(3);
    for (const trajectory of mathTrajectories) {
      expect(trajectory.experiencesShown).toHaveLength(library.experiences.length);
      expect(trajectory.model).toBe("sim-actor");
    }
    const webTrajectory = trajectories.find((trajectory) => trajectory.domain === "web")!;
    expect(webTrajectory.toolCalls.map((call) => call.name)).toContain("web_search");

    expect(await worker.stop("SIGTERM")).toBe(0);
  } finally {
    await runner.close();
  }
});
