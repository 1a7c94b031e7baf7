import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { createSimServer, createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { repositoryRoot, spawnCli, waitForStderr } from "../testing/spawn-cli.js";

const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");

/**
 * Rollout jobs a worker has started and not finished, from its stdout (`job-start` / `job-end` lines; a job's
 * job-end comes before its result is published and the job acked, so an unfinished job was not acked).
 */
function rolloutsInFlight(stdout: string): string[] {
  const running = new Set<string>();
  const complete = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
  for (const [, event, id] of complete.matchAll(/ (job-start|job-end) tfgrpo\.actor\.rollout job=(\S+)/g)) {
    if (event === "job-start") running.add(id!);
    else running.delete(id!);
  }
  return [...running];
}

it("learns over NATS with two actor workers in their own processes, one killed mid-epoch: every rollout recorded exactly once", async () => {
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-learn-nats-"));
  const train = path.join(directory, "train.jsonl");
  const val = path.join(directory, "val.jsonl");
  await writeSuiteJsonl(train, createSuite({ domain: "math", seed: 5, size: 6, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain: "math", seed: 5, size: 4, split: "val" }));
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 5, latency: { meanMs: 150, jitterMs: 50 } });
  // A killed worker's jobs come back after the ack wait: 30 s by default, shortened here (runner and workers agree).
  const env = { SIM_PORT: String(sim.port), TFGRPO_NATS_URL: "", TFGRPO_NATS_ACK_WAIT_MS: "5000" };
  const worker = (name: string) =>
    spawnCli(["serve", "--role", "actor", "--nats", nats.url, "--config", simConfig, "--concurrency", "3"], {
      env: { ...env, WORKER: name },
    });
  const doomed = worker("doomed");
  const survivor = worker("survivor");
  try {
    await waitForStderr(doomed, /serving tfgrpo\.actor\.rollout/, "doomed worker");
    await waitForStderr(survivor, /serving tfgrpo\.actor\.rollout/, "surviving worker");
    const db = path.join(directory, "tfgrpo.db");
    const runId = "learn-over-nats";
    const runner = spawnCli(
      [
        "learn",
        "--nats",
        nats.url,
        "--local-roles",
        "critic,curator",
        "--config",
        simConfig,
        "--domain",
        "math",
        "--train",
        train,
        "--val",
        val,
        "--epochs",
        "2",
        "--group-size",
        "4",
        // Full G in every epoch (no fewer attempts for tasks that taught nothing): the counts below are exact.
        "--settled-task-attempts",
        "0",
        "--concurrency",
        "8",
        "--seed",
        "5",
        "--db",
        db,
        "--run-id",
        runId,
      ],
      { env },
    );
    // Kill one worker with jobs in flight, mid-epoch.
    await waitForStderr(runner, /step 1 rollouts: [1-9]/, "runner");
    const deadline = Date.now() + 120_000;
    while (rolloutsInFlight(doomed.output.stdout).length === 0) {
      if (doomed.child.exitCode !== null)
        throw new Error(`doomed worker exited early:\n${doomed.output.stderr}`);
      if (Date.now() > deadline) throw new Error(`doomed worker: no job in flight:\n${doomed.output.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const doomedClosed = new Promise((resolve) => doomed.child.once("close", resolve));
    doomed.child.kill("SIGKILL");
    // Everything it printed has been read once its output is closed: what it had started and not finished then.
    await doomedClosed;
    const orphaned = rolloutsInFlight(doomed.output.stdout);
    expect(orphaned.length, doomed.output.stdout).toBeGreaterThan(0);
    expect(await runner.exited, runner.output.stderr).toBe(0);

    const store = await createStore(db, { mustExist: true });
    try {
      expect((await store.getRun(runId))?.status).toBe("finished");
      const train = (await store.listTrajectories({ runId })).filter((t) => t.step !== undefined);
      // 2 epochs x 6 tasks x 4 attempts: each exactly once, none lost to the killed worker.
      expect(train).toHaveLength(2 * 6 * 4);
      expect(new Set(train.map((t) => t.id)).size).toBe(train.length);
      expect(train.filter((t) => t.stopReason === "error")).toEqual([]);
      expect(train.every((t) => t.reward !== undefined)).toBe(true);
      // Usage is recorded once per rollout too (a redelivered job's second result is dropped).
      const usage = await store.getUsageTotals(runId);
      const rollouts = (await store.listTrajectories({ runId })).length;
      expect(usage.byRole.actor?.calls).toBeGreaterThanOrEqual(rollouts);
    } finally {
      await store.close();
    }
    // The surviving worker did work, including the jobs the killed one had taken (redelivered: attempt 2 or later).
    expect(survivor.output.stdout).toMatch(/job-end tfgrpo\.actor\.rollout .* ok/);
    const redelivered = [
      ...survivor.output.stdout.matchAll(/ job-end tfgrpo\.actor\.rollout job=(\S+) attempt=(\d+) ok/g),
    ]
      .filter(([, , attempt]) => Number(attempt) >= 2)
      .map(([, id]) => id);
    expect(redelivered, survivor.output.stdout).toEqual(expect.arrayContaining(orphaned));
  } finally {
    doomed.child.kill("SIGKILL");
    survivor.child.kill("SIGTERM");
    await survivor.exited;
  }
}, 600_000);
