import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Task } from "@tfgrpo/protocol";
import type { OnlineConfigInput, OnlineEvent } from "@tfgrpo/serving";
import { createSuite, type SimNoiseOptions } from "@tfgrpo/sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapDifference, bootstrapMean } from "../metrics/bootstrap.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { createOnlineStack } from "./create-online-stack.js";
import { runOnlineSession } from "./online-session.js";

// Acceptance of online learning (issue 14): an agent that is not the project's actor — LangGraph's prebuilt
// createReactAgent on the actor role's ChatOpenAI, pointed at the SIMULATED world over HTTP, using the library only
// through @tfgrpo/langgraph's prompt and outcome hooks — serves a stream of tasks from an empty library, while the
// online learner reflects, canaries and gates. The sim's policy improves only when a served lesson names its trap.

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
  // A short session: the sim's lessons move the success rate by far more than the 10 points the default canary test
  // is sized for, so the test tells +20 from -20 points (harm 0.2: four times fewer outcomes for the same error
  // rates at that size) and looks from 6 outcomes per arm; a small reference for probation.
  rollout: {
    canaryShare: 0.5,
    harm: 0.2,
    minCanaryOutcomes: 6,
    rollbackMargin: 0.3,
    rollbackWindow: 12,
    minReference: 8,
  },
};

function stream(seed: number, families: readonly string[], size: number): Task[] {
  const all = createSuite({ domain: "math", seed, size: size * 12, split: "train" });
  return all.filter((task) => families.includes(String(task.meta?.family))).slice(0, size);
}

async function session(options: {
  name: string;
  seed: number;
  tasks: Task[];
  noise?: SimNoiseOptions;
  online?: OnlineConfigInput;
  concurrency?: number;
  agentTools?: "domain" | "none";
  /** A library file to import as the head before serving (a version learned before this session). */
  seedLibrary?: Record<string, string>;
  exposure?: boolean;
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
    ...(options.agentTools ? { agentTools: options.agentTools } : {}),
    ...(options.exposure === false ? { exposure: false } : {}),
  });
  try {
    if (options.seedLibrary) {
      await stack.store.importLibrary("math", { text: JSON.stringify(options.seedLibrary), format: "plain" });
      await stack.learner.start();
    }
    const result = await runOnlineSession({
      domain: "math",
      tasks: options.tasks,
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

const rate = (values: readonly boolean[]) => values.filter(Boolean).length / values.length;

describe("online learning while serving (SIMULATED world)", () => {
  it("a createReactAgent serving 200 tasks from an empty library gets better while serving, through gated versions", async () => {
    const families = ["range-multiples", "inclusive-days", "percent-change", "negative-modular"];
    const tasks = stream(41, families, 200);
    expect(tasks).toHaveLength(200);
    // Without tools (the sim's direct mode: the policy shows its computation instead of running it), so the 200 tasks
    // stay cheap; the same agent with the real sandbox is what `tfgrpo online --sim` runs (docs/online-learning.md).
    const result = await session({ name: "acceptance", seed: 41, tasks, agentTools: "none" });
    const first = result.served.slice(0, 50).map((r) => (r.success ? 1 : 0));
    const last = result.served.slice(-50).map((r) => (r.success ? 1 : 0));
    const firstCi = bootstrapMean(first, { seed: 1 });
    const lastCi = bootstrapMean(last, { seed: 1 });
    const gates = result.events.filter((e) => e.type === "gate");
    console.log(
      JSON.stringify({
        first50: firstCi,
        last50: lastCi,
        improvement: bootstrapDifference(first, last, { seed: 1 }),
        reflections: result.events.filter((e) => e.type === "reflection").length,
        gates: gates.map((g) =>
          g.type === "gate" ? [g.version, g.decision.decision, g.decision.reason] : null,
        ),
        rollbacks: result.events.filter((e) => e.type === "rollback").length,
        versions: result.versions.map((v) => [v.version, v.state, v.gate?.decision ?? null]),
      }),
    );
    // "Well above": at least 20 points better, and the 95% interval of the improvement (bootstrap over the tasks of
    // each half; they share no task to pair on) clear of zero. Served with varied exposure, which withholds each
    // uncertain entry from about half its requests until its contrast decides: live traffic pays for measuring each
    // lesson (on this seed the interval's low end is 0.04).
    const improvement = bootstrapDifference(first, last, { seed: 1 });
    expect(improvement.estimate).toBeGreaterThanOrEqual(0.2);
    expect(improvement.low).toBeGreaterThan(0);
    // Every gate decision is on the version record, with its numbers.
    expect(gates.length).toBeGreaterThan(0);
    for (const gate of gates) {
      if (gate.type !== "gate") continue;
      const record = result.versions.find((v) => v.version === gate.version)!;
      expect(record.gate).toMatchObject({ decision: gate.decision.decision, tasks: gate.decision.tasks });
      expect(record.state).toBe(gate.decision.decision === "commit" ? "committed" : "rejected");
    }
    expect(result.versions.some((v) => v.state === "committed")).toBe(true);
    // The session ends with every version decided.
    expect(result.versions.filter((v) => v.state === "proposed")).toEqual([]);
  }, 240_000);

  it("drift: a switch of task family triggers a reflection by the success-drop rule; a version learned after it is promoted", async () => {
    const before = stream(43, ["range-multiples"], 60);
    // Traffic enough after the switch for a reflection's canary to reach its decision (a canary proposed late in a
    // short session ends inconclusive however good it is).
    const after = stream(43, ["negative-modular"], 80);
    const result = await session({
      name: "drift",
      seed: 43,
      tasks: [...before, ...after],
      agentTools: "none",
      // Batches so large that only the drop rule can fire.
      online: { ...config, trigger: { batchSize: 1000, window: 16, dropBelow: 0.45, cooldown: 8 } },
      // This test measures the trigger, which needs family A served well before the switch. With exposure on, the
      // new lessons stay uncertain candidates (nothing promotes them without reflections) and are withheld from half
      // the requests: the pre-switch window was at 0.125 (0.5 without), below the drop threshold before the switch.
      exposure: false,
    });
    expect(result.served).toHaveLength(140);
    const reflections = result.events.filter((e) => e.type === "reflection");
    const preSwitch = result.served.slice(before.length - 16, before.length).map((r) => r.success);
    const afterSwitch = reflections.filter((e) => e.at > before.length);
    const lastAfter = result.served.slice(-16).map((r) => r.success);
    console.log(
      JSON.stringify({
        reflections: reflections.map((r) =>
          r.type === "reflection" ? [r.at, r.reason, r.windowRate, r.version] : null,
        ),
        preSwitchRate: rate(preSwitch),
        servedVersions: result.served.map((r) => `${r.version ?? "-"}${r.success ? "+" : "."}`).join(" "),
        lastAfterRate: rate(lastAfter),
        gates: result.events
          .filter((e) => e.type === "gate")
          .map((g) => (g.type === "gate" ? [g.version, g.decision.decision] : null)),
      }),
    );
    // Family A was served well before the switch; after it the window fell and the drop rule fired soon.
    expect(rate(preSwitch)).toBeGreaterThanOrEqual(0.45);
    expect(afterSwitch.length).toBeGreaterThan(0);
    expect(afterSwitch[0]).toMatchObject({ reason: "success-drop" });
    // Within a window and a cooldown of the switch (16 + 8 outcomes).
    expect(afterSwitch[0]!.at - before.length).toBeLessThanOrEqual(24);
    for (const reflection of reflections) expect(reflection).toMatchObject({ reason: "success-drop" });
    const promotedAfter = result.events.filter(
      (e) => e.type === "gate" && e.decision.decision === "commit" && e.at > before.length,
    );
    expect(promotedAfter.length).toBeGreaterThan(0);
  }, 240_000);

  it("a harmful version served as a canary is stopped by the sequential test (critic noise: contradictory lessons)", async () => {
    // The head already teaches the inclusive range; the critic now writes every first rule the wrong way round.
    const tasks = stream(47, ["range-multiples", "inclusive-days"], 45);
    const result = await session({
      name: "harmful",
      seed: 47,
      tasks,
      agentTools: "none",
      noise: { critic: { contradictory: 1, vague: 0, duplicate: 0, wrongAttribution: 0, wrongId: 0 } },
      seedLibrary: {
        G0: "When tallying values over an inclusive interval, write `range(lo, hi + 1)`: start at the lower bound itself and reach the upper one rather than dropping the two bounds.",
      },
      // The canary's test compares versions as wholes. With exposure on, the active G0 (and the canary's modified G0)
      // is withheld from a sixth of the requests on both sides, which shrinks the gap it sees. Measured here without
      // it; see docs/online-learning.md.
      exposure: false,
      online: {
        ...config,
        trigger: { batchSize: 12, window: 16, dropBelow: 0.2, cooldown: 8 },
        rollout: { canaryShare: 0.5, rollbackMargin: 0, rollbackWindow: 8, minReference: 8 },
      },
    });
    console.log(
      JSON.stringify({
        events: result.events.map((e) =>
          e.type === "gate" ? [e.type, e.kind, e.at, e.version, e.decision.reason] : [e.type, e.at],
        ),
        versions: result.versions.map((v) => [v.version, v.state, v.message]),
      }),
    );
    const stopped = result.events.flatMap((e) =>
      e.type === "gate" && e.kind === "gate" && e.decision.decision === "reject" ? [e] : [],
    );
    expect(stopped.length).toBeGreaterThan(0);
    const first = stopped[0]!;
    const details = first.decision.details as { rule: string; canaryOutcomes: number; estimate: number };
    expect(details.rule).toBe("sequential");
    expect(details.estimate).toBeLessThan(-0.2);
    // A large harm is decided on few outcomes: the 10 per arm the test waits for, and not many more.
    expect(details.canaryOutcomes).toBeLessThanOrEqual(20);
    const record = result.versions.find((v) => v.version === first.version)!;
    expect(record.state).toBe("rejected");
    expect(record.gate?.details).toMatchObject({ rule: "sequential" });
    expect(result.versions.filter((v) => v.state === "proposed")).toEqual([]);
    // The head was never replaced by a harmful version: every committed version is the import or a lifecycle move.
    const committed = result.versions.filter((v) => v.state === "committed");
    for (const version of committed) expect(version.message).toMatch(/^(import|lifecycle:)/);
    expect(committed.map((v) => v.version)).toContain(first.headVersion);
  }, 240_000);
});
