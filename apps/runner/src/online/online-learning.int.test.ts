import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Task } from "@tfgrpo/protocol";
import type { OnlineConfigInput, OnlineEvent } from "@tfgrpo/serving";
import { createSuite, type SimNoiseOptions } from "@tfgrpo/sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapMean } from "../metrics/bootstrap.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { createOnlineStack } from "./create-online-stack.js";
import { runOnlineSession } from "./online-session.js";

// Acceptance of online learning (issue 14): an agent that is not the project's actor — LangGraph's prebuilt
// createReactAgent on the actor role's ChatOpenAI, pointed at the SIMULATED world over HTTP, running its Python in
// the real sandbox — serves a stream of tasks through the library service from an empty library, while the online
// learner reflects, canaries and gates. The sim's policy improves only when a served lesson names its trap.

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-online-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const config: OnlineConfigInput = {
  trigger: { batchSize: 25, window: 20, dropBelow: 0.5, cooldown: 10 },
  groups: { pool: 60, neighbours: 5, minSimilarity: 0.2, maxGroups: 4 },
  rollout: { canaryShare: 0.5, canaryOutcomes: 14, tolerance: 0.05, rollbackMargin: 0.2, rollbackWindow: 10 },
};

function stream(seed: number, families: readonly string[], size: number): Task[] {
  const all = createSuite({ domain: "math", seed, size: size * 4, split: "train" });
  return all.filter((task) => families.includes(String(task.meta?.family))).slice(0, size);
}

async function session(options: {
  name: string;
  seed: number;
  tasks: Task[];
  noise?: SimNoiseOptions;
  online?: OnlineConfigInput;
  concurrency?: number;
}) {
  const world = await startSimWorld({
    seed: options.seed,
    ...(options.noise ? { noise: options.noise } : {}),
  });
  const answers = new Map(options.tasks.map((task) => [task.question, task.answer ?? null]));
  const events: OnlineEvent[] = [];
  const stack = await createOnlineStack({
    modelsConfig: world.config,
    db: path.join(directory, `${options.name}.sqlite`),
    domain: "math",
    runId: `online-${options.name}`,
    online: options.online ?? config,
    seed: options.seed,
    groundTruth: (task) => answers.get(task) ?? null,
    onEvent: (event) => events.push(event),
  });
  try {
    const result = await runOnlineSession({
      domain: "math",
      tasks: options.tasks,
      service: stack.service,
      learner: stack.learner,
      serve: stack.serve,
      concurrency: options.concurrency ?? 1,
    });
    const versions = await stack.store.listVersions("math");
    return { ...result, versions, events };
  } finally {
    await stack.close();
    await world.close();
  }
}

describe("online learning while serving (SIMULATED world)", () => {
  it("a createReactAgent serving 200 tasks from an empty library gets better while serving, through gated versions", async () => {
    const families = ["range-multiples", "inclusive-days", "percent-change", "negative-modular"];
    const tasks = stream(41, families, 200);
    expect(tasks).toHaveLength(200);
    const result = await session({ name: "acceptance", seed: 41, tasks });
    const first = result.served.slice(0, 50).map((r) => (r.success ? 1 : 0));
    const last = result.served.slice(-50).map((r) => (r.success ? 1 : 0));
    const firstCi = bootstrapMean(first, { seed: 1 });
    const lastCi = bootstrapMean(last, { seed: 1 });
    const gates = result.events.filter((e) => e.type === "gate");
    console.log(
      JSON.stringify({
        first50: firstCi,
        last50: lastCi,
        reflections: result.events.filter((e) => e.type === "reflection").length,
        gates: gates.map((g) =>
          g.type === "gate" ? [g.version, g.decision.decision, g.decision.reason] : null,
        ),
        rollbacks: result.events.filter((e) => e.type === "rollback").length,
        versions: result.versions.map((v) => [v.version, v.state, v.gate?.decision ?? null]),
      }),
    );
    // "Well above": the two 95% intervals (bootstrap over tasks) do not overlap.
    expect(lastCi.low).toBeGreaterThan(firstCi.high);
    // Every gate decision is on the version record, with its numbers.
    expect(gates.length).toBeGreaterThan(0);
    for (const gate of gates) {
      if (gate.type !== "gate") continue;
      const record = result.versions.find((v) => v.version === gate.version)!;
      expect(record.gate).toMatchObject({ decision: gate.decision.decision, tasks: gate.decision.tasks });
      expect(record.state).toBe(gate.decision.decision === "commit" ? "committed" : "rejected");
    }
    expect(result.versions.some((v) => v.state === "committed")).toBe(true);
  }, 240_000);
});
