import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import {
  actorRollout,
  type Bus,
  createInProcessBus,
  criticAdvantage,
  criticReward,
  curatorConsolidate,
  curatorCredit,
  curatorGate,
  curatorLifecycle,
  type GateDecision,
  type RolloutRequest,
  type SubjectInput,
  type Task,
  type Trajectory,
} from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { learnOptionsSchema } from "./learn-options.js";
import { createLearningGraph, initialLearnState, type LearnStateValue } from "./learning-graph.js";
import { runStateKeys, runStateOf } from "./run-state.js";

// The learning graph in process over the in-process Bus, with scripted roles: no CLI, no simulated world. Each role
// answers by a fixed rule, so every number a step records is known in advance.

const domain = "math";
const runId = "graph-test";
const task = (id: string): Task => ({ id, domain, question: `What is ${id}?`, answer: `answer-${id}` });
const train = ["t1", "t2", "t3", "t4"].map(task);
const val = ["v1", "v2"].map(task);

/** How the scripted actor answers: right or wrong, per request. */
type Policy = (request: RolloutRequest) => boolean;

/** Training: attempt 0 of every task is right, the others wrong (every group has a winner). Validation: any library helps. */
const learnsFromLibrary: Policy = (request) =>
  request.purpose === "train" ? request.attempt === 0 : request.library !== null;

interface WorldOptions {
  policy?: Policy;
  /** The gate's answer; by default commit when the candidate scores higher than the head. */
  gate?: (input: { candidateScores: number[]; headScores: number[] }) => "commit" | "reject";
  /** Throws from the gate on its first call (a crash inside a node). */
  failGateOnce?: boolean;
}

/** What the roles were asked, by operation. */
interface Calls {
  rollouts: string[];
  /** `<rollout id> <stats revision>` of every rollout under a library. */
  revisions: string[];
  rewards: number;
  advantage: string[];
  consolidate: number;
  credit: number[];
  lifecycle: number;
  gate: number;
  /** Every gate request, as sent. */
  gateRequests: SubjectInput<typeof curatorGate>[];
}

interface World {
  /** The LangGraph checkpoints of this world's run. */
  checkpoints: string;
  bus: Bus;
  store: Store;
  calls: Calls;
  log: string[];
  close(): Promise<void>;
}

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-learning-graph-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function startWorld(name: string, options: WorldOptions = {}): Promise<World> {
  const policy = options.policy ?? learnsFromLibrary;
  const bus = createInProcessBus();
  const store = await createStore(path.join(directory, `${name}.db`));
  const calls: Calls = {
    rollouts: [],
    revisions: [],
    rewards: 0,
    advantage: [],
    consolidate: 0,
    credit: [],
    lifecycle: 0,
    gate: 0,
    gateRequests: [],
  };
  let gateFailures = options.failGateOnce ? 1 : 0;

  await bus.work(actorRollout, async (request) => {
    calls.rollouts.push(`${request.groupId}/${request.attempt}`);
    if (request.library)
      calls.revisions.push(`${request.groupId}/${request.attempt} ${request.library.statsRevision}`);
    return trajectoryOf(request, policy(request) ? request.task.answer! : "a wrong answer");
  });
  // The critic is sent trajectory ids; the scripted one reads them from the store the runner writes.
  const read = (ids: string[]) => store.listTrajectories({ ids });
  await bus.handle(criticReward, async ({ task, trajectoryIds }) => {
    calls.rewards++;
    return {
      rewards: (await read(trajectoryIds)).map(({ id: trajectoryId, finalAnswer }) => {
        const right = finalAnswer === task.answer;
        return {
          trajectoryId,
          reward: right ? 1 : 0,
          grade: right ? ("pass" as const) : ("fail" as const),
          extracted: finalAnswer,
          method: "exact",
        };
      }),
    };
  });
  await bus.handle(criticAdvantage, async ({ groupId, task, trajectoryIds }) => {
    calls.advantage.push(task.id);
    return {
      groupId,
      summaries: (await read(trajectoryIds)).map((t) => ({
        trajectoryId: t.id,
        reward: t.reward ?? 0,
        summary: "answered",
      })),
      proposals: [
        {
          proposalId: `${groupId}/0`,
          op: "add" as const,
          text: `For ${task.id}, check the answer before giving it.`,
          reason: "the winning attempt checked its answer",
          groupId,
          taskId: task.id,
        },
      ],
      skipped: null,
    };
  });
  await bus.handle(curatorConsolidate, async ({ runId, domain, baseVersion, proposals }) => {
    calls.consolidate++;
    const operations = proposals.map((p) => ({ op: "add" as const, text: p.text!, reason: p.reason }));
    const applied = await store.applyOperations(domain, operations, {
      parent: baseVersion,
      state: "proposed",
      runId,
    });
    return { version: applied.version.version, operations, notes: [] };
  });
  await bus.handle(curatorCredit, async ({ observations }) => {
    calls.credit.push(observations.length);
    return { updated: 0, statsRevision: `stats-${calls.credit.length}` };
  });
  await bus.handle(curatorLifecycle, async () => {
    calls.lifecycle++;
    return { version: null, transitions: [] };
  });
  await bus.handle(curatorGate, async (input) => {
    calls.gate++;
    calls.gateRequests.push(input);
    if (gateFailures > 0) {
      gateFailures--;
      throw new Error("the curator crashed");
    }
    const mean = (scores: number[]) => scores.reduce((sum, s) => sum + s, 0) / scores.length;
    const better = mean(input.candidateScores) > mean(input.headScores);
    const decision = options.gate?.(input) ?? (better ? "commit" : "reject");
    const gate: GateDecision = {
      decision,
      candidateScore: mean(input.candidateScores),
      headScore: mean(input.headScores),
      margin: 0,
      mode: "better-by-margin",
      tasks: input.candidateScores.length,
      stage: input.stage,
      reason: decision === "commit" ? "the candidate scores higher" : "the candidate is not better",
    };
    // As the real gate: a passed pre-check writes nothing, it only says "run the full validation".
    if (input.stage === "full" || decision === "reject")
      await store.setVersionState(
        input.domain,
        input.candidateVersion,
        decision === "commit" ? "committed" : "rejected",
        gate,
      );
    return gate;
  });
  return {
    checkpoints: path.join(directory, `${name}.checkpoints.db`),
    bus,
    store,
    calls,
    log: [],
    async close() {
      await bus.close();
      await store.close();
    },
  };
}

function trajectoryOf(request: RolloutRequest, finalAnswer: string): Trajectory {
  return {
    id: `${request.groupId}/${request.attempt}`,
    runId: request.runId,
    taskId: request.task.id,
    groupId: request.groupId,
    attempt: request.attempt,
    ...(request.epoch === undefined ? {} : { epoch: request.epoch }),
    ...(request.step === undefined ? {} : { step: request.step }),
    domain,
    libraryVersion: request.library?.version ?? null,
    messages: [],
    toolCalls: [],
    finalAnswer,
    experiencesShown: [],
    experiencesCited: [],
    usage: {
      calls: 1,
      inputTokens: 100,
      cachedInputTokens: 0,
      outputTokens: 20,
      costUsd: 0.01,
      latencyMs: 0,
    },
    latencyMs: 0,
    stopReason: "answered",
  };
}

function graphOf(world: World, options: Record<string, unknown> = {}) {
  const checkpointer = SqliteSaver.fromConnString(world.checkpoints);
  const graph = createLearningGraph(
    {
      bus: world.bus,
      store: world.store,
      options: learnOptionsSchema.parse({
        runId,
        domain,
        epochs: 1,
        batchSize: 4,
        groupSize: 2,
        concurrency: 4,
        baselineEachRound: false,
        ...options,
      }),
      train,
      val,
      progress: () => ({ update: () => {}, done: () => {} }),
      log: (line) => world.log.push(line),
    },
    checkpointer,
  );
  return {
    graph,
    config: { configurable: { thread_id: runId }, recursionLimit: 1000 },
    close: () => (checkpointer as unknown as { db: { close(): void } }).db.close(),
  };
}

async function learn(world: World, options: Record<string, unknown> = {}): Promise<LearnStateValue> {
  const { graph, config, close } = graphOf(world, options);
  try {
    return await graph.invoke(initialLearnState(await world.store.getHeadVersion(domain)), config);
  } finally {
    close();
  }
}

/** What two runs of the same script must agree on: the steps' numbers, every version, the head. */
async function outcomeOf(world: World, final: LearnStateValue) {
  const versions = await world.store.listVersions(domain);
  return {
    history: final.history,
    headVersion: final.headVersion,
    stoppedBy: final.stoppedBy,
    versions: versions.map((v) => ({ version: v.version, parent: v.parent, state: v.state, ops: v.ops })),
    head: (await world.store.getHead(domain))?.experiences.map((e) => [e.id, e.text, e.status]) ?? null,
    trajectories: (await world.store.listTrajectories({ runId })).map((t) => [t.id, t.reward]),
  };
}

describe("the learning graph with scripted roles", () => {
  it("commits a candidate that wins on validation", async () => {
    const world = await startWorld("commit");
    try {
      const final = await learn(world);
      expect(final.history).toHaveLength(1);
      expect(final.history[0]).toMatchObject({
        step: 1,
        tasks: 4,
        rollouts: 8,
        trainReward: 0.5,
        groups: 4,
        skippedGroups: 0,
        proposals: 4,
        operations: 4,
        headBefore: null,
        candidateVersion: 1,
        headAfter: 1,
        candidateScore: 1,
        headScore: 0,
        decision: "commit",
        librarySize: 4,
        libraryStates: { candidate: 4, active: 0, probation: 0, archived: 0 },
      });
      expect(final.headVersion).toBe(1);
      expect(await world.store.getHeadVersion(domain)).toBe(1);
      // Candidate and head ran on both validation tasks, one sample each.
      expect(world.calls.rollouts.filter((id) => id.includes("/validation/"))).toHaveLength(4);
      // The empty library has no entries to credit or move.
      expect(world.calls.credit).toEqual([]);
      expect(world.calls.lifecycle).toBe(0);
      const runState = runStateOf(world.store, runId);
      expect(await runState.get(runStateKeys.gate(1))).toMatchObject({ gate: { decision: "commit" } });
      expect(await runState.list(runStateKeys.step)).toEqual(final.history);
      expect(world.log).toContain("step 1: 4 proposal(s) -> 4 operation(s), candidate v1");
    } finally {
      await world.close();
    }
  });

  it("rejects a candidate that does not win, keeps the head and credits it in the next step", async () => {
    // The library does not help on validation, so the candidate ties the head and the gate rejects it.
    const world = await startWorld("reject", {
      policy: (request) => request.purpose === "train" && request.attempt === 0,
    });
    try {
      await world.store.applyOperations(
        domain,
        [{ op: "add", text: "Read the question twice.", reason: "seed" }],
        {
          parent: null,
          state: "committed",
        },
      );
      const final = await learn(world, { epochs: 2 });
      expect(final.history.map((s) => [s.decision, s.headBefore, s.candidateVersion, s.headAfter])).toEqual([
        ["reject", 1, 2, 1],
        ["reject", 1, 3, 1],
      ]);
      expect(final.history[0]!.gateReason).toBe("the candidate is not better");
      expect(await world.store.getHeadVersion(domain)).toBe(1);
      expect((await world.store.listVersions(domain)).map((v) => v.state)).toEqual([
        "committed",
        "rejected",
        "rejected",
      ]);
      // Each step's 8 rollouts of the head are credited once, and the lifecycle runs once per step.
      expect(world.calls.credit).toEqual([8, 8]);
      expect(world.calls.lifecycle).toBe(2);
      // Rollouts rank by the stats revision the curator's last credit returned (before the first: the run's start).
      const revisionsOf = (fragment: string) =>
        new Set(
          world.calls.revisions.filter((line) => line.includes(fragment)).map((line) => line.split(" ")[1]),
        );
      expect(revisionsOf("/s1/")).toEqual(new Set([`${runId}/start`]));
      expect(revisionsOf("/s2/")).toEqual(new Set(["stats-1"]));
      expect(revisionsOf("/validation/")).toEqual(new Set(["stats-1", "stats-2"]));
      // Kept with the credit mark, so a credit node run again after a crash passes on the same revision.
      expect(await runStateOf(world.store, runId).get(runStateKeys.credit(2))).toEqual({
        observations: 8,
        statsRevision: "stats-2",
      });
    } finally {
      await world.close();
    }
  });

  it("skips groups whose rewards are all equal (std = 0) and asks the critic only about the others", async () => {
    const world = await startWorld("skip", {
      // t1 always right, t2 always wrong: nothing to compare there.
      policy: (request) =>
        request.task.id === "t1" ||
        (request.task.id !== "t2" && request.attempt === 0 && request.purpose === "train"),
    });
    try {
      const final = await learn(world);
      expect([...world.calls.advantage].sort()).toEqual(["t3", "t4"]);
      expect(final.history[0]).toMatchObject({ groups: 4, skippedGroups: 2, proposals: 2, operations: 2 });
      expect(world.log).toContain("step 1: 2 group(s) to learn from, 2 homogeneous group(s) skipped");
      const runState = runStateOf(world.store, runId);
      expect(await runState.list(runStateKeys.advice)).toHaveLength(2);
    } finally {
      await world.close();
    }
  });

  it("stops cleanly before a step once the run has spent its budget", async () => {
    const world = await startWorld("budget");
    try {
      // Step 1 spends 8 training and 4 validation rollouts at $0.01 each: past $0.10, so step 2 never starts.
      const final = await learn(world, { epochs: 3, budgetUsd: 0.1 });
      expect(final.stoppedBy).toBe("budget");
      expect(final.done).toBe(true);
      expect(final.history).toHaveLength(1);
      expect(world.log).toContain("budget reached ($0.1200 of $0.1): stopping before step 2");
      expect(world.calls.rollouts.every((id) => !id.includes("/s2/"))).toBe(true);
    } finally {
      await world.close();
    }
  });

  const nodes = [
    "sampleBatch",
    "rollout",
    "reward",
    "credit",
    "lifecycle",
    "advantage",
    "consolidate",
    "validateAndGate",
    "finishStep",
  ] as const;
  it.each(nodes)(
    "resumes after %s from its checkpoint to the result of an uninterrupted run",
    async (node) => {
      // Two epochs of two batches: step 1 commits v1, later steps credit that head and reject their candidates.
      const options = { epochs: 2, batchSize: 2 };
      const straight = await startWorld("straight");
      const interrupted = await startWorld("interrupted");
      try {
        const expected = await outcomeOf(straight, await learn(straight, options));
        expect(expected.history.map((s) => s.decision)).toEqual(["commit", "reject", "reject", "reject"]);
        // Stop after every run of the node and continue in a new graph each time, as a process restarted after a crash.
        let input: Partial<LearnStateValue> | null = initialLearnState(null);
        let stops = 0;
        let final: LearnStateValue;
        for (;;) {
          const { graph, config, close } = graphOf(interrupted, options);
          await graph.invoke(input, { ...config, interruptAfter: [node] });
          input = null;
          const snapshot = await graph.getState(config);
          close();
          if (snapshot.next.length === 0) {
            final = snapshot.values as LearnStateValue;
            break;
          }
          expect(snapshot.next).not.toContain(node);
          stops++;
        }
        // Every run of the node was a stop, but the last finishStep, which ends the run.
        const runs =
          node === "validateAndGate" ? expected.history.filter((s) => s.candidateVersion !== null).length : 4;
        expect(stops).toBe(node === "finishStep" ? runs - 1 : runs);
        expect(await outcomeOf(interrupted, final)).toEqual(expected);
        // Nothing was done twice: the same rollouts, critic calls and curator calls as the uninterrupted run.
        expect([...interrupted.calls.rollouts].sort()).toEqual([...straight.calls.rollouts].sort());
        expect(interrupted.calls.rewards).toBe(straight.calls.rewards);
        expect(interrupted.calls.advantage).toEqual(straight.calls.advantage);
        expect(interrupted.calls.consolidate).toBe(straight.calls.consolidate);
        expect(interrupted.calls.credit).toEqual(straight.calls.credit);
        expect(interrupted.calls.lifecycle).toBe(straight.calls.lifecycle);
        expect(interrupted.calls.gate).toBe(straight.calls.gate);
        // And every rollout ranked by the same stats revision, the curator's, kept across the restarts.
        expect([...interrupted.calls.revisions].sort()).toEqual([...straight.calls.revisions].sort());
      } finally {
        await straight.close();
        await interrupted.close();
      }
    },
  );

  it("resumes a node that crashed halfway without redoing what it finished", async () => {
    const world = await startWorld("crash", { failGateOnce: true });
    const straight = await startWorld("straight");
    try {
      const expected = await outcomeOf(straight, await learn(straight));
      await expect(learn(world)).rejects.toThrow(/the curator crashed/);
      const { graph, config, close } = graphOf(world);
      expect((await graph.getState(config)).next).toEqual(["validateAndGate"]);
      const final = await graph.invoke(null, config);
      close();
      expect(await outcomeOf(world, final)).toEqual(expected);
      // The validation rollouts of the crashed gate were stored, so the resumed gate reuses them.
      expect([...world.calls.rollouts].sort()).toEqual([...straight.calls.rollouts].sort());
      expect(world.calls.consolidate).toBe(1);
      expect(world.calls.gate).toBe(2);
    } finally {
      await world.close();
      await straight.close();
    }
  });

  it("sends the pre-check's decision with the full gate request, so the curator keeps nothing between the calls", async () => {
    const world = await startWorld("precheck");
    try {
      const final = await learn(world, { precheckSize: 1 });
      expect(final.history[0]).toMatchObject({ decision: "commit", candidateScore: 1, headScore: 0 });
      expect(world.calls.gateRequests.map((request) => request.stage)).toEqual(["precheck", "full"]);
      const [precheck, full] = world.calls.gateRequests;
      expect(precheck!.precheck).toBeUndefined();
      expect(full!.precheck).toMatchObject({ decision: "commit", stage: "precheck", tasks: 1 });
      expect(full!.candidateScores).toHaveLength(2);
    } finally {
      await world.close();
    }
  });

  it("refuses run state that does not match its schema, naming the key and the field", async () => {
    const world = await startWorld("schema");
    try {
      await world.store.putRunState(runId, "gate/s2", { gate: { decision: "maybe" }, candidateScore: 1 });
      await expect(runStateOf(world.store, runId).get(runStateKeys.gate(2))).rejects.toThrow(
        /run state "gate\/s2".*gate\.decision/,
      );
      await expect(
        runStateOf(world.store, runId).put(runStateKeys.consolidation(1), { version: -1, operations: 0 }),
      ).rejects.toThrow(/run state "consolidate\/s1".*version/);
    } finally {
      await world.close();
    }
  });
});
