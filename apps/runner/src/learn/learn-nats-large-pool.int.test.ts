// Issue 28's acceptance: `learn --nats` with the curator and the critic on their own workers, through a nats-server
// whose max_payload is 256 KB, on a 30,000-task pool (batch 20): the steps complete and candidate versions are
// written; a planted lesson carrying an answer from the pool is still refused, also when the step is consolidated again
// after its head moved, and after the curator restarts and the run resumes. About a minute and a half on the sim
// (TFGRPO_LARGE_POOL sets another pool size); that no message grows with the pool is bus-message-size.int.test.ts.
import path from "node:path";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, defaultPolicyBehaviour, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { type SpawnedCli, spawnCli, waitForStderr } from "../testing/spawn-cli.js";
import { startRoleWorker } from "../testing/start-role-worker.js";
import { runStateKeys, runStateOf } from "./run-state.js";

const poolSize = Number(process.env.TFGRPO_LARGE_POOL ?? 30_000);
const domain = "math";
const seed = 6;
const runId = "large-pool";
const simConfig = "examples/models.sim.yaml";
/** A step's candidate being validated (the progress label also counts the baseline after it). */
const candidateValidation = /candidate v\d+\n(?:.*\n)*?.*step \d+ validation: \d+\//;
const refusal =
  /step (\d+): curator: refused \S+ \(leakage\): contains the answer of task (\S+) \("([^"]+)"\)/g;
const fingerprintsLine = new RegExp(`leakage fingerprints of ${poolSize + 10} task\\(s\\): ([0-9a-f]{12})`);

/** Stops a run (resumable: SIGTERM) once `step` starts; the steps before it are complete. */
async function stopAtStep(runner: SpawnedCli, step: number): Promise<void> {
  try {
    await waitForStderr(runner, new RegExp(`step ${step} rollouts`), "runner", 240_000);
    runner.child.kill("SIGTERM");
    await runner.exited;
  } finally {
    runner.child.kill("SIGKILL");
  }
}

it(`learn --nats on a pool of ${poolSize} tasks through a 256 KB max_payload: steps complete, answer leaks are refused, after a moved head and a resume too`, async () => {
  await using directory = await temporaryDirectory("tfgrpo-large-pool-");
  const train = path.join(directory.path, "train.jsonl");
  const val = path.join(directory.path, "val.jsonl");
  const pool = createSuite({ domain, seed, size: poolSize, split: "train" });
  await writeSuiteJsonl(train, pool);
  await writeSuiteJsonl(val, createSuite({ domain, seed, size: 10, split: "val" }));
  const db = path.join(directory.path, "tfgrpo.db");
  await (await createStore(db)).close();

  await using nats = await startNatsServer({ maxPayload: 262_144 });
  // The critic plants a lesson carrying its group's answer wherever a group has one. The policy falls into a pitfall
  // more often than by default, so the families whose answers are distinctive (weighted means as fractions, percent
  // changes) have groups to learn from, and leak, in every step.
  await using sim = await createSimServer({
    seed,
    noise: { critic: { answerLeak: 1 } },
    behaviour: { fall: { ...defaultPolicyBehaviour.fall, none: 0.5 } },
  });
  const env = { SIM_PORT: String(sim.port), TFGRPO_NATS_URL: "", TFGRPO_DB: "" };
  const worker = (role: string, extra: string[] = []) =>
    startRoleWorker(role, ["--nats", nats.url, "--config", simConfig, ...extra], { env });
  await using curator = await worker("curator", ["--db", db]);
  await using critic = await worker("critic");
  const learn = (extra: string[]) =>
    spawnCli(
      ["learn", "--nats", nats.url, "--local-roles", "actor", "--config", simConfig, "--db", db, ...extra],
      { env },
    );

  const runner = learn([
    ...["--domain", domain, "--train", train, "--val", val, "--epochs", "1", "--batch-size", "20"],
    ...["--group-size", "3", "--concurrency", "12", "--seed", String(seed), "--run-id", runId],
  ]);
  // Another writer commits while the first candidate is validated: the step is consolidated again on the new head.
  await waitForStderr(runner, candidateValidation, "runner", 240_000);
  const writer = await createStore(db);
  try {
    const head = await writer.getHeadVersion(domain);
    await writer.applyOperations(
      domain,
      [{ op: "add", text: "Injected while the runner validates.", reason: "another writer" }],
      { parent: head, state: "committed", runId: "elsewhere" },
    );
  } finally {
    await writer.close();
  }
  await stopAtStep(runner, 3);
  const stderr = runner.output.stderr;
  expect(stderr).not.toMatch(/max_payload/);
  const digest = fingerprintsLine.exec(stderr)?.[1];
  expect(digest, stderr).toBeDefined();

  // Planted answers were refused, each naming a pool task that has that answer...
  const answers = new Map(pool.map((task) => [task.id, task.answer!]));
  const refused = [...stderr.matchAll(refusal)];
  expect(refused.length, stderr).toBeGreaterThan(0);
  for (const [, , taskId, answer] of refused) expect(answers.get(taskId!), taskId).toContain(answer);
  // ...and refused again when the step was consolidated anew on the moved head.
  const moved =
    /step (\d+): library math moved from .* \(another writer committed\) while candidate v\d+, based on .*, was validated: re-validating/.exec(
      stderr,
    );
  expect(moved, stderr).not.toBeNull();
  const refusedAfterMove = [...stderr.slice(moved!.index).matchAll(refusal)].filter(
    ([, step]) => step === moved![1],
  );
  expect(refusedAfterMove.length, stderr).toBeGreaterThan(0);

  // A new curator process and the resumed run: the same fingerprints, read from the store, still refuse leaks.
  expect(await curator.stop()).toBe(0);
  await using restarted = await worker("curator", ["--db", db]);
  const resumed = learn(["--resume", runId]);
  await stopAtStep(resumed, 4);
  expect(resumed.output.stderr).not.toMatch(/max_payload/);
  expect(fingerprintsLine.exec(resumed.output.stderr)?.[1], resumed.output.stderr).toBe(digest);
  const refusedOnResume = [...resumed.output.stderr.matchAll(refusal)];
  expect(refusedOnResume.map(([, step]) => step)).toContain("3");
  for (const [, , taskId, answer] of refusedOnResume) expect(answers.get(taskId!), taskId).toContain(answer);

  const store = await createStore(db, { mustExist: true });
  try {
    expect((await store.getRun(runId))?.status, resumed.output.stderr).toBe("interrupted");
    const runState = runStateOf(store, runId);
    for (const step of [1, 2, 3])
      expect(await runState.get(runStateKeys.step(step)), `step ${step}`).toBeDefined();
    const candidates = (await store.listVersions(domain)).filter((version) => version.runId === runId);
    expect(candidates.length, stderr).toBeGreaterThan(0);
  } finally {
    await store.close();
  }
  console.log(
    `pool of ${poolSize}: ${refused.length} leak(s) refused (${refusedAfterMove.length} after the head moved), ${refusedOnResume.length} after the curator restarted and the run resumed:\n${[...refused, ...refusedOnResume].map(([line]) => line).join("\n")}`,
  );
  for (const role of [curator, restarted, critic]) expect(role.output.stderr).not.toMatch(/max_payload/);
}, 600_000);
