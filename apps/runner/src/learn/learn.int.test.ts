import { existsSync } from "node:fs";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryHistory } from "../testing/library-history.js";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { spawnCli } from "../testing/spawn-cli.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";

const domain = "math";
let temporary: TemporaryDirectory | undefined;
let directory: string;
let train: string;
let val: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-learn-");
  directory = temporary.path;
  ({ train, val } = await writeSimSuites(directory, { domain, seed: 3, sizes: { train: 6, val: 6 } }));
});
afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

const learnArgs = (db: string, runId: string) =>
  simLearnArgs({
    seed: 3,
    domain,
    train,
    val,
    epochs: 2,
    batchSize: 3,
    groupSize: 4,
    concurrency: 6,
    // The counts below are exact.
    fullGroups: true,
    db,
    runId,
  });

describe("tfgrpo learn on the simulated world", () => {
  it("runs every step, records each rollout once, and resumes after kill -9 to the same libraries as an uninterrupted run", async () => {
    const runId = "learn-resume-test";
    const straightDb = path.join(directory, "straight", "tfgrpo.db");
    const crashedDb = path.join(directory, "crashed", "tfgrpo.db");

    const straight = spawnCli(learnArgs(straightDb, runId));
    const crashed = spawnCli(learnArgs(crashedDb, runId));
    // Kill the second run mid-epoch: once the second step's rollouts are under way.
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (/step 2 rollouts: [1-9]/.test(crashed.output.stderr)) {
          clearInterval(timer);
          crashed.child.kill("SIGKILL");
          resolve();
        } else if (crashed.child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`the run ended before it could be killed:\n${crashed.output.stderr}`));
        }
      }, 50);
    });
    await crashed.exited;
    expect(await straight.exited, straight.output.stderr).toBe(0);

    const resumed = spawnCli(["learn", "--sim", "--resume", runId, "--db", crashedDb]);
    expect(await resumed.exited, resumed.output.stderr).toBe(0);
    expect(resumed.output.stderr).toContain(`resuming run ${runId}`);
    expect(resumed.output.stdout).toMatch(/report: .*\.html/);

    const a = await createStore(straightDb, { mustExist: true });
    const b = await createStore(crashedDb, { mustExist: true });
    try {
      const history = await libraryHistory(a, domain);
      expect(history.versions.length).toBeGreaterThan(0);
      expect(history.versions.some((v) => v.state === "committed")).toBe(true);
      expect(await libraryHistory(b, domain)).toEqual(history);

      for (const store of [a, b]) {
        const run = await store.getRun(runId);
        expect(run?.status).toBe("finished");
        // 2 epochs x 2 batches of 3 tasks x 4 attempts, each rollout stored exactly once under its job id.
        const trainRollouts = (await store.listTrajectories({ runId })).filter((t) => t.step !== undefined);
        expect(trainRollouts).toHaveLength(2 * 2 * 3 * 4);
        expect(new Set(trainRollouts.map((t) => t.id)).size).toBe(trainRollouts.length);
        expect(trainRollouts.every((t) => t.reward !== undefined)).toBe(true);
        const steps = (await store.listRunStateKeys(runId)).filter((k) => k.startsWith("step/"));
        expect(steps).toHaveLength(4);
      }
      expect(existsSync(path.join(directory, "crashed", "reports", `${runId}.html`))).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  }, 600_000);
});
