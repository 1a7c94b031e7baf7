import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simModelsConfig } from "../runtime/start-sim-world.js";
import { libraryHistory } from "../testing/library-history.js";
import { meansOnlyGate } from "../testing/means-only-gate.js";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { type SpawnedCli, spawnCli } from "../testing/spawn-cli.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";

// SIGTERM of a running `learn --sim` at two moments of a step: while the curator consolidates, and while the gate's
// validation runs. The run must stop promptly as `interrupted`, leave no half-written version, and `--resume` must
// reach the libraries of an uninterrupted run of the same seed.
//
// The in-process sim answers in milliseconds, too fast to land a signal inside one phase; so the interrupted runs take
// their models from a second sim server of the same seed with latency on every call (a models config naming its
// port). The sim's answers do not depend on latency, so the uninterrupted reference runs on the plain `--sim` world,
// and the resumed runs too.

const domain = "math";
const seed = 3;
let temporary: TemporaryDirectory | undefined;
let directory: string;
let train: string;
let val: string;
let slow: SimServer | undefined;
let slowModels: string;
let reference: Awaited<ReturnType<typeof libraryHistory>>;
/** Six validation tasks: the scenario needs steps that commit, so the gate decides on means (see meansOnlyGate). */
let env: NodeJS.ProcessEnv;

const learnArgs = (db: string, runId: string) => [
  ...simLearnArgs({
    seed,
    domain,
    train,
    val,
    epochs: 1,
    batchSize: 3,
    groupSize: 4,
    concurrency: 6,
    db,
    runId,
  }),
  "--mode",
  "direct",
  "--no-baseline",
];

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-learn-sigterm-");
  directory = temporary.path;
  ({ train, val } = await writeSimSuites(directory, { domain, seed, sizes: { train: 6, val: 6 } }));
  slow = await createSimServer({ seed, latency: { meanMs: 400 } });
  slowModels = path.join(directory, "models.slow.yaml");
  await writeFile(
    slowModels,
    (await readFile(simModelsConfig, "utf8")).replace(/\$\{SIM_PORT\}/, String(slow.port)),
  );
  // The uninterrupted run of the same seed, on the plain --sim world.
  const straightDb = path.join(directory, "straight", "tfgrpo.db");
  env = await meansOnlyGate(directory);
  const straight = spawnCli(learnArgs(straightDb, "sigterm-run"), { env });
  expect(await straight.exited, straight.output.stderr).toBe(0);
  const store = await createStore(straightDb, { mustExist: true });
  try {
    reference = await libraryHistory(store, domain);
  } finally {
    await store.close();
  }
  // The scenario needs a step that proposes, consolidates and gates a candidate.
  expect(reference.versions.some((v) => v.state === "committed")).toBe(true);
}, 120_000);

afterAll(async () => {
  await slow?.close();
  await temporary?.[Symbol.asyncDispose]();
});

/** Sends SIGTERM as soon as stderr matches `pattern`; resolves with the time it was sent. */
function terminateOn(run: SpawnedCli, pattern: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(run.output.stderr)) {
        run.child.stderr?.off("data", check);
        run.child.kill("SIGTERM");
        resolve(Date.now());
      }
    };
    run.child.stderr?.on("data", check);
    void run.exited.then(() => reject(new Error(`the run ended before ${pattern}:\n${run.output.stderr}`)));
  });
}

async function interruptAndResume(name: string, pattern: RegExp) {
  const runId = "sigterm-run";
  const db = path.join(directory, name, "tfgrpo.db");
  const run = spawnCli([...learnArgs(db, runId), "--config", slowModels], { env });
  const sentAt = await terminateOn(run, pattern);
  const code = await run.exited;
  const stoppedAfterMs = Date.now() - sentAt;
  expect(code, run.output.stderr).not.toBe(0);
  // Promptly: the call in flight (at most a few 400 ms model calls) finishes, nothing more.
  expect(stoppedAfterMs).toBeLessThan(10_000);

  const store = await createStore(db, { mustExist: true });
  let keys: string[];
  let states: Record<number, string>;
  try {
    const stopped = await store.getRun(runId);
    expect(stopped?.status, run.output.stderr).toBe("interrupted");
    expect(stopped?.summary?.resume).toBe(`tfgrpo learn --resume ${runId}`);
    keys = await store.listRunStateKeys(runId);
    states = Object.fromEntries((await store.listVersions(domain)).map((v) => [v.version, v.state]));
    // No half-written version: every version has its entries, and the head is a committed version.
    for (const info of await store.listVersions(domain)) {
      const snapshot = await store.getVersion(domain, info.version);
      expect(snapshot?.experiences.length, `v${info.version}`).toBeGreaterThan(0);
    }
    const headVersion = await store.getHeadVersion(domain);
    if (headVersion !== null)
      expect((await store.getVersionInfo(domain, headVersion))?.state).toBe("committed");
  } finally {
    await store.close();
  }

  const resumed = spawnCli(["learn", "--sim", "--resume", runId, "--db", db], { env });
  expect(await resumed.exited, resumed.output.stderr).toBe(0);
  expect(resumed.output.stderr).toContain(`resuming run ${runId} (status interrupted)`);
  const after = await createStore(db, { mustExist: true });
  try {
    expect((await after.getRun(runId))?.status).toBe("finished");
    expect(await libraryHistory(after, domain)).toEqual(reference);
  } finally {
    await after.close();
  }
  return { stderr: run.output.stderr, keys, stoppedAfterMs, states };
}

describe("SIGTERM of a running learn --sim", () => {
  it("during consolidation: the curator's call finishes, the run stops before the gate as interrupted, and resumes to the same libraries", async () => {
    // The advantages of step 1 (it has a group to learn from on this seed) are in: consolidation starts.
    const { stderr, keys } = await interruptAndResume("consolidation", /step 1 advantages: (\d+)\/\1 /);
    // The signal arrived while the curator consolidated: before the step's consolidation line.
    expect(stderr.indexOf("SIGTERM: stopping the run")).toBeGreaterThan(-1);
    expect(stderr.indexOf("SIGTERM: stopping the run")).toBeLessThan(
      stderr.search(/step 1: \d+ proposal\(s\) ->/),
    );
    // The consolidation's outcome was kept (the resumed run does not consolidate again), no gate was started.
    expect(keys).toContain("consolidate/s1");
    expect(keys).not.toContain("gate/s1");
  }, 240_000);

  it("during the gate: validation stops at once, nothing is committed, and the run resumes to the same libraries", async () => {
    const { stderr, keys, states } = await interruptAndResume("gate", /step 1 validation: \d+\/\d+/);
    expect(stderr.indexOf("SIGTERM: stopping the run")).toBeGreaterThan(-1);
    expect(stderr).not.toMatch(/step 1: gate /);
    // The candidate was consolidated but never judged: it stays proposed, nothing was committed.
    expect(Object.values(states)).toEqual(["proposed"]);
    expect(keys).toContain("consolidate/s1");
    expect(keys).not.toContain("gate/s1");
  }, 240_000);
});
