// Two runners learning one library at once with a 4-task validation set (issue 32): each says up front what the
// set can detect, and the sequential gate, taking more seeds per task where the set is small, commits a candidate
// that is clearly better instead of rejecting every version for want of evidence.
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { spawnCli } from "../testing/spawn-cli.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";
import { runStateKeys, runStateOf } from "./run-state.js";

const domain = "math";
let temporary: TemporaryDirectory;
let train: string;
let val: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-small-validation-");
  ({ train, val } = await writeSimSuites(temporary.path, { domain, seed: 3, sizes: { train: 12, val: 4 } }));
});
afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

const learn = (db: string, runId: string, seed: number) =>
  spawnCli(
    simLearnArgs({
      seed,
      domain,
      train,
      val,
      epochs: 1,
      batchSize: 6,
      groupSize: 4,
      concurrency: 6,
      db,
      runId,
    }),
    { env: { TFGRPO_DB: "" }, cwd: temporary.path },
  );

it("two runners with a 4-task validation set say what it can detect and commit a clearly better candidate", async () => {
  // One workspace database (SQLite, as a user's first runs are) shared by both runners.
  const db = path.join(temporary.path, "tfgrpo.db");
  const runners = [learn(db, "small-a", 3), learn(db, "small-b", 4)];
  for (const runner of runners) {
    expect(await runner.exited, runner.output.stderr).toBe(0);
    // Said as the run starts, from the real rule: 4 tasks get up to 30 seeds each.
    expect(runner.output.stderr).toMatch(
      /validation: 4 tasks x up to 30 samples \(gate sequential, the curator's default\): the gate can commit a candidate only if it wins by about \d+ points/,
    );
  }
  const store = await createStore(db);
  try {
    const decisions = [];
    for (const runId of ["small-a", "small-b"])
      for (const outcome of await runStateOf(store, runId).list(runStateKeys.gate))
        decisions.push(outcome.gate);
    const sequential = decisions.filter(
      (gate) => (gate.details?.test as { kind?: string })?.kind === "sequential",
    );
    expect(sequential.length).toBeGreaterThan(0);
    // A candidate that wins by 15 points or more on the validation tasks is committed.
    const clearlyBetter = sequential.filter((gate) => gate.candidateScore! - gate.headScore! >= 0.15);
    expect(clearlyBetter.length).toBeGreaterThan(0);
    for (const gate of clearlyBetter) expect(gate.decision, gate.reason).toBe("commit");
    // More seeds per task than the fixed rule's 2, where the evidence needed them.
    expect(
      Math.max(...sequential.map((gate) => (gate.details!.test as { rounds: number }).rounds)),
    ).toBeGreaterThan(2);
    expect(await store.getHeadVersion(domain)).not.toBeNull();
  } finally {
    await store.close();
  }
}, 400_000);
