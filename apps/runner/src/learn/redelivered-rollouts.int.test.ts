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

it(
  `${runs} runs with NATS restarted twice each (rollouts in flight; after the reward phase, the results consumer lost): every rollout stored once, each with its reward`,
  async () => {
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
    try {
      const options = { servers: url, ackWaitMs: 5000, logger: { warn() {}, error() {}, info() {} } };
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
          { concurrency: 4 },
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

      for (let run = 0; run < runs; run++) {
        const runId = `redelivery-${run}`;
        handled = 0;
        restartInFlight = undefined;
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
          await runRollouts({ bus: runner, store, runId, jobs: groups.flatMap(rolloutJobs) });
          if (step === 1) expect(restartInFlight, "the first restart came during the rollouts").toBeDefined();
          for (const group of groups)
            await rewardGroup({ ...group, bus: runner, store, groundTruth: "required" });
          if (step === 1) {
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
      }
    } finally {
      for (const handle of handles) await handle.close().catch(() => {});
      for (const bus of buses) await bus.close().catch(() => {});
      await store.close();
      for (const server of servers) await server.stop();
    }
  },
  runs * 40_000,
);
