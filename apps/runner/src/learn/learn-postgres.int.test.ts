// Every role on its own machine: the runner, two actor workers, the critic and the curator as five processes, each in
// its own working directory, sharing only a NATS URL and a PostgreSQL URL (no shared files). The runner is killed
// (SIGKILL) mid-run and the run is resumed by a new runner in yet another directory (another machine): the libraries
// equal those of the uninterrupted in-process run of the same seed on SQLite.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { startPostgresServer } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { libraryHistory } from "../testing/library-history.js";
import { meansOnlyGate } from "../testing/means-only-gate.js";
import { repositoryRoot, spawnCli, waitForStderr } from "../testing/spawn-cli.js";
import { startRoleWorker } from "../testing/start-role-worker.js";

const simConfig = path.join(repositoryRoot, "examples/models.sim.yaml");
const domain = "math";
const seed = 3;
let temporary: TemporaryDirectory;
let train: string;
let val: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-learn-postgres-");
  train = path.join(temporary.path, "data", "train.jsonl");
  val = path.join(temporary.path, "data", "val.jsonl");
  await mkdir(path.dirname(train));
  await writeSuiteJsonl(train, createSuite({ domain, seed, size: 6, split: "train" }));
  await writeSuiteJsonl(val, createSuite({ domain, seed, size: 6, split: "val" }));
});
afterAll(() => temporary?.[Symbol.asyncDispose]());

const shape = [
  "--seed",
  String(seed),
  "--domain",
  domain,
  "--epochs",
  "1",
  "--batch-size",
  "3",
  "--group-size",
  "4",
  // Full G (no fewer attempts for tasks that taught nothing): the counts below are exact.
  "--settled-task-attempts",
  "0",
];

/** A directory of its own for a process: what another machine would be. */
async function machine(name: string): Promise<string> {
  const dir = path.join(temporary.path, "machines", name);
  await mkdir(dir, { recursive: true });
  return dir;
}

it("five processes sharing only NATS and PostgreSQL, the runner killed and resumed on another machine, equal the in-process run of the same seed", async () => {
  // The reference: everything in one process, on a SQLite file.
  const referenceDb = path.join(temporary.path, "reference", "tfgrpo.db");
  // A handful of validation tasks: the comparison needs committed versions, so the gate decides on means.
  const gate = await meansOnlyGate(temporary.path);
  const reference = spawnCli(
    ["learn", "--sim", ...shape, "--train", train, "--val", val, "--db", referenceDb, "--run-id", "pg-team"],
    { env: gate },
  );

  await using postgres = await startPostgresServer();
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed });
  const db = await postgres.createDatabase();
  const env = {
    ...gate,
    SIM_PORT: String(sim.port),
    TFGRPO_NATS_URL: "",
    TFGRPO_DB: "",
    TFGRPO_NATS_ACK_WAIT_MS: "5000",
  };
  const common = ["--nats", nats.url, "--config", simConfig];
  await using actorA = await startRoleWorker("actor", [...common, "--concurrency", "3"], {
    env,
    cwd: await machine("actor-a"),
  });
  await using actorB = await startRoleWorker("actor", [...common, "--concurrency", "3"], {
    env,
    cwd: await machine("actor-b"),
  });
  await using critic = await startRoleWorker("critic", [...common, "--concurrency", "4"], {
    env,
    cwd: await machine("critic"),
  });
  await using curator = await startRoleWorker("curator", [...common, "--db", db], {
    env,
    cwd: await machine("curator"),
  });
  const learn = ["learn", ...common, "--local-roles", "", "--concurrency", "6", "--db", db];

  const first = spawnCli([...learn, ...shape, "--train", train, "--val", val, "--run-id", "pg-team"], {
    env,
    cwd: await machine("runner-1"),
  });
  await waitForStderr(first, /step 2 rollouts: [1-9]/, "first runner", 180_000);
  first.child.kill("SIGKILL");
  await first.exited;
  const second = spawnCli([...learn, "--resume", "pg-team"], { env, cwd: await machine("runner-2") });
  expect(await second.exited, second.output.stderr).toBe(0);
  expect(second.output.stderr).toContain("resuming run pg-team");
  expect(await reference.exited, reference.output.stderr).toBe(0);

  // Both actors worked; no process printed the database password.
  for (const worker of [actorA, actorB])
    expect(worker.output.stdout).toMatch(/job-end tfgrpo\.actor\.rollout .* ok/);
  for (const p of [first, second, actorA, actorB, critic, curator])
    expect(p.output.stdout + p.output.stderr).not.toContain(postgres.password);

  const expected = await createStore(referenceDb, { mustExist: true });
  const team = await createStore(db);
  try {
    const history = await libraryHistory(expected, domain);
    expect(history.versions.some((v) => v.state === "committed")).toBe(true);
    expect(await libraryHistory(team, domain)).toEqual(history);
    expect((await team.getRun("pg-team"))?.status).toBe("finished");
    const rollouts = (await team.listTrajectories({ runId: "pg-team" })).filter((t) => t.step !== undefined);
    expect(rollouts).toHaveLength(2 * 3 * 4);
    expect(new Set(rollouts.map((t) => `${t.groupId}#${t.attempt}`)).size).toBe(rollouts.length);
  } finally {
    await expected.close();
    await team.close();
  }
}, 400_000);
