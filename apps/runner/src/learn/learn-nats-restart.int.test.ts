import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type NatsServerHandle, startNatsServer } from "@tfgrpo/bus-nats/testing";
import { createSimServer } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { learnArgs } from "../testing/learn-args.js";
import { repositoryRoot, type SpawnedCli, spawnCli, waitForStderr } from "../testing/spawn-cli.js";
import { startRoleWorker } from "../testing/start-role-worker.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";
import { trainingGroupId } from "./rollouts.js";
import { runStateKeys, runStateOf } from "./run-state.js";

const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");
const domain = "math";
const epochs = 2;
const groupSize = 4;
const trainSize = 6;

/** Advantage requests the critic worker has started and not finished, from its stdout (job-start / job-end lines). */
function advantageCallsInFlight(stdout: string): number {
  const complete = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
  return (
    (complete.match(/ job-start tfgrpo\.critic\.advantage /g)?.length ?? 0) -
    (complete.match(/ job-end tfgrpo\.critic\.advantage /g)?.length ?? 0)
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("learns over NATS with actor, critic and curator workers while the nats-server is killed and restarted twice (rollouts in flight, then critic calls in flight): the run finishes, every rollout once, every group's advice once, nothing skipped", async () => {
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-learn-nats-restart-"));
  const storeDir = path.join(directory, "jetstream");
  const servers: NatsServerHandle[] = [];
  const workers: Awaited<ReturnType<typeof startRoleWorker>>[] = [];
  let runner: SpawnedCli | undefined;
  try {
    const { train, val } = await writeSimSuites(directory, {
      domain,
      seed: 2,
      sizes: { train: trainSize, val: 4 },
    });
    // Kept on disk between restarts (JetStream's streams and consumers), on the same port.
    servers.push(await startNatsServer({ storeDir }));
    const url = servers[0]!.url;
    const port = servers[0]!.port;
    await using sim = await createSimServer({ seed: 2, latency: { meanMs: 200, jitterMs: 50 } });
    const env = { SIM_PORT: String(sim.port), TFGRPO_NATS_URL: "", TFGRPO_NATS_ACK_WAIT_MS: "5000" };
    const db = path.join(directory, "tfgrpo.db");
    const common = ["--nats", url, "--config", simConfig];
    workers.push(
      ...(await Promise.all([
        startRoleWorker("actor", [...common, "--concurrency", "4"], { env }),
        startRoleWorker("critic", [...common, "--concurrency", "8"], { env }),
        startRoleWorker("curator", [...common, "--db", db], { env }),
      ])),
    );
    const runId = "learn-nats-restart";
    const started = Date.now();
    runner = spawnCli(
      [
        ...learnArgs({
          seed: 2,
          domain,
          train,
          val,
          epochs,
          groupSize,
          concurrency: 8,
          fullGroups: true,
          db,
          runId,
        }),
        "--nats",
        url,
        // Every role is a worker: the runner's calls all cross the server.
        "--local-roles",
        "",
        "--config",
        simConfig,
        "--mode",
        "direct",
      ],
      { env },
    );
    const restart = async () => {
      servers.at(-1)!.kill();
      await new Promise((resolve) => servers.at(-1)!.process.once("exit", resolve));
      await sleep(1000);
      servers.push(await startNatsServer({ storeDir, port }));
    };

    // 1. Rollouts in flight: step 1's first results are in, the rest are being worked on.
    const [, done, total] = await waitForStderr(runner, /step 1 rollouts: ([1-9]\d*)\/(\d+)/, "runner");
    await restart();
    expect(Number(done), "the first restart came while rollouts were in flight").toBeLessThan(Number(total));
    // 2. Critic calls in flight: the critic worker has started an advantage request (a group's advice) and not
    // finished it.
    const critic = workers[1]!;
    const adviceStartedAt = critic.output.stdout.length;
    const deadline = Date.now() + 120_000;
    while (advantageCallsInFlight(critic.output.stdout.slice(adviceStartedAt)) === 0) {
      if (runner.child.exitCode !== null) throw new Error(`runner exited early:\n${runner.output.stderr}`);
      if (Date.now() > deadline)
        throw new Error(
          `critic: no advantage call within 120 s:\n${runner.output.stderr}\n${critic.output.stdout}`,
        );
      await sleep(10);
    }
    const secondKillStep = [...runner.output.stderr.matchAll(/step (\d+) \(epoch/g)].at(-1)?.[1];
    await restart();
    const lastRestartAt = Date.now();
    const exited = await Promise.race([runner.exited, sleep(90_000).then(() => "timeout" as const)]);
    const afterRestartMs = Date.now() - lastRestartAt;
    expect(exited, `runner after the second restart:\n${runner.output.stderr}`).toBe(0);
    // The run finishes within about a minute of the last restart (a lost request would wait for its timeout).
    expect(afterRestartMs).toBeLessThan(60_000);

    const store = await createStore(db, { mustExist: true });
    try {
      expect((await store.getRun(runId))?.status).toBe("finished");
      const runState = runStateOf(store, runId);
      const steps = await runState.list(runStateKeys.step);
      expect(steps.map((s) => s.step)).toEqual([1, 2]);
      const all = await store.listTrajectories({ runId });
      expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
      for (const record of steps) {
        const training = all.filter((t) => t.groupId.startsWith(trainingGroupId(runId, record.step, "")));
        // Every rollout stored exactly once: one trajectory per (group, attempt), N x G of them.
        const slots = training.map((t) => `${t.groupId}#${t.attempt}`);
        expect(new Set(slots).size, `step ${record.step}: a (group, attempt) stored twice`).toBe(
          slots.length,
        );
        expect(training).toHaveLength(trainSize * groupSize);
        expect(record.rollouts).toBe(training.length);
        // Nothing failed on the transport: no failed rollout, every one rewarded.
        expect(training.filter((t) => t.stopReason === "error" || t.stopReason === "model_error")).toEqual(
          [],
        );
        expect(training.every((t) => t.reward !== undefined)).toBe(true);
        expect(record.infrastructureFailures ?? 0).toBe(0);

        // Each group's advice is asked for and applied once: one advice entry per learnable group, none failed
        // (a lost or timed-out critic call is stored as "critic failed: ..."), and the step's proposals are exactly
        // those entries' proposals, with no proposal twice.
        const groupIds = [...new Set(training.map((t) => t.groupId))];
        const advice = (
          await Promise.all(groupIds.map((groupId) => runState.get(runStateKeys.advice(groupId))))
        ).filter((entry) => entry !== undefined);
        expect(advice.length).toBeGreaterThan(0);
        expect(advice.filter((entry) => entry.skipped?.startsWith("critic failed"))).toEqual([]);
        for (const entry of advice)
          expect(entry.skipped ?? "").not.toMatch(/bus_|timeout|closed|reconnect|nats/i);
        const proposals = (await runState.get(runStateKeys.proposals(record.step))) ?? [];
        const byId = (a: { proposalId: string }, b: { proposalId: string }) =>
          a.proposalId.localeCompare(b.proposalId);
        expect([...proposals].sort(byId)).toEqual(advice.flatMap((entry) => entry.proposals).sort(byId));
        const proposalKeys = proposals.map((p) => p.proposalId);
        expect(new Set(proposalKeys).size).toBe(proposalKeys.length);
      }
      // Each consolidation made at most one version: no two versions of the run from the same parent with the same
      // operations (a consolidation applied twice would make a second one).
      const versions = (await store.listVersions(domain)).filter((v) => v.runId === runId || v.runId == null);
      const shapes = versions.map((v) => `${v.parent}:${JSON.stringify(v.ops)}`);
      expect(new Set(shapes).size, JSON.stringify(versions, null, 1)).toBe(shapes.length);
      const consolidated = (await runState.list(runStateKeys.consolidation))
        .map((c) => c.version)
        .filter((v) => v !== null);
      expect(new Set(consolidated).size).toBe(consolidated.length);
      console.log(
        `nats restart: run ${Date.now() - started} ms, finished ${afterRestartMs} ms after the last restart (step ${secondKillStep}); ${all.length} trajectories, versions ${versions.map((v) => `v${v.version}:${v.state}`).join(",")}`,
      );
    } finally {
      await store.close();
    }
  } finally {
    if (runner && runner.child.exitCode === null) {
      runner.child.kill("SIGKILL");
      await runner.exited;
    }
    await Promise.all(workers.map((worker) => worker[Symbol.asyncDispose]()));
    for (const server of servers) await server.stop();
    await rm(directory, { recursive: true, force: true });
  }
}, 240_000);
