import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { type NatsServerHandle, startNatsServer } from "@tfgrpo/bus-nats/testing";
import {
  actorRollout,
  type Bus,
  criticReward,
  type Handle,
  type RewardResult,
  type Task,
} from "@tfgrpo/protocol";
import { makeTrajectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { type RolloutGroup, rewardGroup, rolloutJobs, runRollouts, trainingGroupId } from "./rollouts.js";

// NATS restarted twice in every run: once while rollouts are in flight, once after the reward phase, this time
// losing the run's results consumer (as a server killed before it synced its consumer state does). The next rollout
// phase then gets every earlier result of the run again, after those rollouts were rewarded: each must stay stored
// once, with its reward. Longer runs: scripts/nats-redelivery-soak.sh (TFGRPO_REDELIVERY_RUNS, _TASKS, _ATTEMPTS).
const runs = Number(process.env.TFGRPO_REDELIVERY_RUNS ?? 3);
const tasksPerStep = Number(process.env.TFGRPO_REDELIVERY_TASKS ?? 3);
const attempts = Number(process.env.TFGRPO_REDELIVERY_ATTEMPTS ?? 4);
const steps = 2;
/** Progress on stderr for the soak script (TFGRPO_REDELIVERY_LOG=1). */
const log = process.env.TFGRPO_REDELIVERY_LOG
  ? (line: string) => console.error(`${new Date().toISOString()} ${line}`)
  : () => {};

const task = (step: number, n: number): Task => ({
  id: `s${step}t${n}`,
  domain: "math",
  question: `What is ${n} + ${step}?`,
  answer: String(n + step),
});

/** The consumer-state directories of one run's results (JetStream keeps each durable under its stream's obs/). */
async function resultConsumerDirs(storeDir: string, runId: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(dir, entry.name);
      if (entry.name.startsWith("results_") && entry.name.endsWith(runId.replaceAll(/[^A-Za-z0-9_-]/g, "_")))
        found.push(full);
      else await walk(full);
    }
  };
  await walk(storeDir);
  return found;
}

/** One run on its own nats-server (restarted twice) and database; throws on a rollout stored twice or unrewarded. */
async function oneRun(run: number): Promise<void> {
  await using temporary = await temporaryDirectory("tfgrpo-redelivery-");
  const storeDir = path.join(temporary.path, "jetstream");
  const servers: NatsServerHandle[] = [await startNatsServer({ storeDir })];
  const { url, port } = servers[0]!;
  const store: Store = await createStore(path.join(temporary.path, "tfgrpo.db"));
  const buses: Bus[] = [];
  const handles: Handle[] = [];
  const restart = async (beforeStart?: () => Promise<void>) => {
    const server = servers.at(-1)!;
    const exited = new Promise((resolve) => server.process.once("exit", resolve));
    server.kill();
    await exited;
    await beforeStart?.();
    servers.push(await startNatsServer({ storeDir, port }));
  };
  const runId = `redelivery-${run}`;
  try {
    const logger = { warn: log, error: log, info() {} };
    const options = { servers: url, ackWaitMs: 5000, logger };
    const runner = await createNatsBus({ ...options, name: "runner" });
    const worker = await createNatsBus({ ...options, name: "worker" });
    buses.push(runner, worker);
    // The first restart comes while the actor works on a rollout: its result is published after the reconnect.
    let restartInFlight: Promise<void> | undefined;
    let handled = 0;
    handles.push(
      await worker.work(
        actorRollout,
        async (input) => {
          handled++;
          if (handled === 3 && !restartInFlight) restartInFlight = restart();
          if (restartInFlight) await restartInFlight;
          return makeTrajectory({
            id: `${input.groupId}/${input.attempt}`,
            runId: input.runId,
            taskId: input.task.id,
            groupId: input.groupId,
            attempt: input.attempt,
            ...(input.step === undefined ? {} : { step: input.step }),
            finalAnswer: input.attempt % 2 === 0 ? input.task.answer! : "wrong",
          });
        },
        // Slots to spare: a handler whose result was being published across a restart may hold its slot while the
        // publish is retried (tens of seconds), though the job itself was redelivered and done elsewhere.
        { concurrency: 16 },
      ),
      await worker.handle(criticReward, async (input) => ({
        rewards: await Promise.all(
          input.trajectoryIds.map(async (trajectoryId): Promise<RewardResult> => {
            const stored = (await store.getTrajectory(trajectoryId))!;
            const pass = stored.finalAnswer === input.task.answer;
            return {
              trajectoryId,
              reward: pass ? 1 : 0,
              grade: pass ? "pass" : "fail",
              extracted: stored.finalAnswer,
              method: "exact",
            };
          }),
        ),
      })),
    );
    for (let step = 1; step <= steps; step++) {
      const groups = Array.from({ length: tasksPerStep }, (_, n): RolloutGroup => {
        const t = task(step, n);
        return {
          runId,
          task: t,
          groupId: trainingGroupId(runId, step, t.id),
          attempts,
          library: null,
          temperature: 0.7,
          purpose: "train",
          step,
          seedOf: (attempt) => attempt + 1,
        };
      });
      log(`${runId} step ${step}: rollouts`);
      await runRollouts({ bus: runner, store, runId, jobs: groups.flatMap(rolloutJobs) });
      if (step === 1) expect(restartInFlight, "the first restart came during the rollouts").toBeDefined();
      log(`${runId} step ${step}: rewards`);
      for (const group of groups)
        await rewardGroup({ ...group, bus: runner, store, groundTruth: "required" });
      if (step === 1) {
        log(`${runId}: second restart, the results consumer lost`);
        // The second restart loses the run's results consumer: step 2's rollouts get step 1's results again.
        await restart(async () => {
          const dirs = await resultConsumerDirs(storeDir, runId);
          expect(dirs, "the run's results consumer on disk").toHaveLength(1);
          await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
        });
        // Both connections are back once a request crosses the new server (the Bus resends it on reconnect).
        await runner.request(criticReward, { task: groups[0]!.task, groupId: "ping", trajectoryIds: [] });
      }
    }
    const stored = await store.listTrajectories({ runId });
    const slots = stored.map((t) => `${t.groupId}#${t.attempt}`);
    expect(new Set(slots).size, `${runId}: a rollout stored twice`).toBe(slots.length);
    expect(stored).toHaveLength(steps * tasksPerStep * attempts);
    const unrewarded = stored.filter((t) => t.reward === undefined || t.rewardInfo === undefined);
    expect(
      unrewarded.map((t) => t.id),
      `${runId}: rollouts whose reward a late copy erased`,
    ).toEqual([]);
    expect(stored.map((t) => t.reward)).toEqual(stored.map((t) => (t.attempt % 2 === 0 ? 1 : 0)));
  } finally {
    // A handler still retrying a publish across the last restart is not waited for: the run's rows are checked.
    await Promise.all(handles.map((handle) => handle.close().catch(() => {})));
    await Promise.all(buses.map((bus) => bus.close().catch(() => {})));
    await store.close();
    for (const server of servers) await server.stop();
  }
}

it(
  `${runs} runs, each with NATS restarted twice (rollouts in flight; after the reward phase, the results consumer lost): every rollout stored once, each with its reward`,
  async () => {
    // While the server is away, every finished rollout's result waits on the worker's one stop signal: that is
    // expected, and printed no listener-leak warning (it did, in a CI run, before the signal was declared shared).
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      for (let run = 0; run < runs; run++) await oneRun(run);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((warning) => warning.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  },
  runs * 60_000,
);
