import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { isInfrastructureFailure } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { runCli, spawnCli } from "../testing/spawn-cli.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";
import { trainingGroupId } from "./rollouts.js";
import { runStateKeys, runStateOf } from "./run-state.js";

const domain = "math";
const epochs = 3;
const groupSize = 5;
const trainSize = 6;

// The sim world's models, except that the actor does not retry: a model fault on a rollout's call ends that rollout
// as an infrastructure failure, so the run has some to account for. The critic and curator retry as usual.
const faultyModels = `providers:
  sim:
    baseUrl: http://127.0.0.1:\${SIM_PORT}/v1
    structuredOutput: json_schema
models:
  sim-actor:
    provider: sim
    model: sim-actor
    temperature: 0.7
    maxTokens: 2048
    timeoutMs: 10000
    maxRetries: 0
  sim-critic:
    provider: sim
    model: sim-critic
    temperature: 0.3
    timeoutMs: 10000
    maxRetries: 4
roles:
  actor: sim-actor
  critic: sim-critic
  curator: sim-critic
  judge: sim-critic
  embedder:
    provider: sim
    model: sim-embedder
`;

it("learns over 3 epochs with G = 5 while 20% of model calls fail (429, 500, hang, malformed, truncated): the run finishes and every rollout is stored and counted exactly once", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-model-faults-");
  const directory = temporary.path;
  const config = path.join(directory, "models.faulty.yaml");
  const { train, val } = await writeSimSuites(directory, {
    domain,
    seed: 7,
    sizes: { train: trainSize, val: 6 },
  });
  await writeFile(config, faultyModels);
  const db = path.join(directory, "tfgrpo.db");
  const runId = "model-faults";
  const started = Date.now();
  const run = spawnCli([
    ...simLearnArgs({
      seed: 7,
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
    "--sim-faults",
    // A hung call is cut after 1.5 s (the socket closed), a 429 asks for a 0.2 s wait: the test stays short.
    "rate=0.2,kinds=429,500,hang,malformed,truncated,hangMs=1500,retryAfterMs=200",
    "--config",
    config,
    "--mode",
    "direct",
  ]);
  const code = await run.exited;
  const elapsedMs = Date.now() - started;
  expect(code, run.output.stderr).toBe(0);
  expect(run.output.stderr).toMatch(/model faults at rate 0\.2/);

  const store = await createStore(db, { mustExist: true });
  try {
    expect(await store.getRun(runId)).toMatchObject({ status: "finished" });
    const runState = runStateOf(store, runId);
    const steps = await runState.list(runStateKeys.step);
    // One step per epoch (the batch is the whole training set).
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);

    const all = await store.listTrajectories({ runId });
    expect(new Set(all.map((t) => t.id)).size, "trajectory ids are unique").toBe(all.length);
    let trainTotal = 0;
    let infraTotal = 0;
    for (const record of steps) {
      const training = all.filter((t) => t.groupId.startsWith(trainingGroupId(runId, record.step, "")));
      // Every (task, attempt) of the step is stored exactly once: N tasks x G attempts, no gap, no double.
      const slots = training.map((t) => `${t.groupId}#${t.attempt}`);
      expect(new Set(slots).size, `step ${record.step}: one trajectory per task and attempt`).toBe(
        slots.length,
      );
      expect(training).toHaveLength(trainSize * groupSize);
      expect(new Set(training.map((t) => t.groupId)).size).toBe(trainSize);
      for (const groupId of new Set(training.map((t) => t.groupId)))
        expect(
          training
            .filter((t) => t.groupId === groupId)
            .map((t) => t.attempt)
            .sort((a, b) => a - b),
        ).toEqual([0, 1, 2, 3, 4]);

      // Infrastructure failures are stored, carry no reward, and are counted apart; task-level rollouts are rewarded.
      const failures = training.filter((t) => isInfrastructureFailure(t));
      const taskLevel = training.filter((t) => !isInfrastructureFailure(t));
      expect(failures.every((t) => t.reward === undefined)).toBe(true);
      expect(taskLevel.every((t) => t.reward !== undefined)).toBe(true);
      // The step record's counts add up to what is stored.
      expect(record.tasks).toBe(trainSize);
      expect(record.rollouts).toBe(training.length);
      expect(record.infrastructureFailures).toBe(failures.length);
      expect(record.groups).toBe(trainSize);
      const mean = taskLevel.reduce((sum, t) => sum + (t.reward ?? 0), 0) / taskLevel.length;
      expect(record.trainReward).toBeCloseTo(mean, 6);
      trainTotal += training.length;
      infraTotal += failures.length;
    }
    expect(trainTotal).toBe(epochs * trainSize * groupSize);
    // With the actor not retrying, 20% faults leave some rollouts failed on the infrastructure (the draws are
    // seeded, so this is the same every run), and far fewer than the circuit breaker's 50%.
    expect(infraTotal).toBeGreaterThan(0);
    expect(infraTotal).toBeLessThan(trainTotal / 2);
    // Every stored rollout (training and validation) is one the run accounts for: a training slot or a validation.
    const validation = all.filter(
      (t) => !steps.some((s) => t.groupId.startsWith(trainingGroupId(runId, s.step, ""))),
    );
    expect(validation.length + trainTotal).toBe(all.length);
    // Validation rollouts (gate and baseline) that failed on the infrastructure are the ones the records count. A
    // head's validation is measured once and reused by every later step that compares against it, so each step counts
    // the failures among the rollouts its decision read: a stored failure is counted at least once, and only by steps
    // that compared its version.
    const validationFailures = validation.filter((t) => isInfrastructureFailure(t));
    expect(validationFailures.every((t) => t.reward === undefined)).toBe(true);
    const counted = steps.reduce((sum, s) => sum + (s.validationInfrastructureFailures ?? 0), 0);
    expect(counted).toBeGreaterThanOrEqual(validationFailures.length);
    const compared = new Set(steps.flatMap((s) => [s.candidateVersion, s.headBefore, s.headAfter]));
    for (const failure of validationFailures) {
      const library = failure.groupId.split("/")[2]!;
      if (library !== "none") expect(compared.has(failure.libraryVersion ?? null), failure.id).toBe(true);
    }
    // A later step that reads the same version again redoes that version's failed samples (a failure is no sample:
    // `runRollouts` runs it anew and the task-level copy replaces it), so an earlier step may have counted failures
    // that are no longer stored. Each step's count is bounded by the rollouts of the versions it compared; the last
    // step's reads were redone by no one, so its count is bounded by the failures still stored for them.
    const versionOf = (t: (typeof validation)[number]) =>
      t.groupId.split("/")[2] === "none" ? null : (t.libraryVersion ?? null);
    const readBy = (s: (typeof steps)[number]) => new Set([s.candidateVersion, s.headBefore]);
    for (const s of steps) {
      const reads = validation.filter((t) => readBy(s).has(versionOf(t)));
      expect(s.validationInfrastructureFailures ?? 0, `step ${s.step}`).toBeLessThanOrEqual(reads.length);
    }
    const last = steps.at(-1)!;
    expect(last.validationInfrastructureFailures ?? 0).toBeLessThanOrEqual(
      validationFailures.filter((t) => readBy(last).has(versionOf(t))).length,
    );
    console.log(
      `model faults: ${elapsedMs} ms, ${trainTotal} training rollouts (${infraTotal} infrastructure failures), ${validation.length} validation rollouts (${validationFailures.length} infrastructure failures), decisions ${steps.map((s) => s.decision).join(",")}`,
    );
  } finally {
    await store.close();
  }
}, 240_000);

it("refuses a bad --sim-faults spec with one line naming the option, before anything is written", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-model-faults-refused-");
  const db = path.join(temporary.path, "tfgrpo.db");
  const { train } = await writeSimSuites(temporary.path, { domain, seed: 7, sizes: { train: 2 } });
  const common = ["learn", "--domain", domain, "--train", train, "--val", train, "--db", db];
  const bad = await runCli([...common, "--sim", "--sim-faults", "rate=0.2,kinds=bogus"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr.trim()).toMatch(
    /^tfgrpo: --sim-faults "rate=0\.2,kinds=bogus": unknown fault kind "bogus"/,
  );
  expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  const withoutSim = await runCli([...common, "--sim-faults", "rate=0.2"]);
  expect(withoutSim.code).toBe(1);
  expect(withoutSim.stderr.trim()).toBe("tfgrpo: learn --sim-faults needs --sim");
  await expect(access(db)).rejects.toThrow();
}, 120_000);
