// Two runners learning the same library at once against one PostgreSQL database: commits never interleave (every
// commit's parent is the head before it), nothing is lost or applied twice, and a runner whose head moved during its
// validation re-validates on the new head, or stops with a clear conflict when asked to.
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { type PostgresServerHandle, startPostgresServer } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { spawnCli, waitForStderr } from "../testing/spawn-cli.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";
import { runStateKeys, runStateOf } from "./run-state.js";

const domain = "math";
let temporary: TemporaryDirectory;
let postgres: PostgresServerHandle;
let train: string;
let val: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-concurrent-runners-");
  ({ train, val } = await writeSimSuites(temporary.path, { domain, seed: 3, sizes: { train: 6, val: 4 } }));
  postgres = await startPostgresServer();
});
afterAll(async () => {
  await postgres?.stop();
  await temporary?.[Symbol.asyncDispose]();
});

const learn = (db: string, runId: string, seed: number, extra: string[] = []) =>
  spawnCli(
    [
      // One step per runner (the whole train set as one batch): enough to race, short enough for CI.
      ...simLearnArgs({
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
      ...extra,
    ],
    { env: { TFGRPO_DB: "" }, cwd: temporary.path },
  );

/** A step's candidate being validated (the same progress label also counts the empty library's baseline after it). */
const candidateValidation = /candidate v\d+\n(?:.*\n)*?.*step \d+ validation: \d+\//;

/** Another writer's commit on the current head, as a third runner's would be. */
async function commitElsewhere(store: Store, text: string) {
  const head = await store.getHeadVersion(domain);
  return store.applyOperations(domain, [{ op: "add", text, reason: "another writer" }], {
    parent: head,
    state: "committed",
    runId: "elsewhere",
  });
}

it("two runners on the same library at once (and a third writer during a validation): the lineage stays linear, every step's commit is one version, nothing is applied twice", async () => {
  const db = await postgres.createDatabase();
  const a = learn(db, "runner-a", 3);
  const b = learn(db, "runner-b", 4);
  // Make sure at least one validation sees its head move: commit while runner A validates its first candidate.
  await waitForStderr(a, candidateValidation, "runner A", 180_000);
  const store = await createStore(db);
  try {
    const injected = await commitElsewhere(store, "Injected while runner A validates.");
    expect(await a.exited, a.output.stderr).toBe(0);
    expect(await b.exited, b.output.stderr).toBe(0);
    expect(a.output.stderr + b.output.stderr).toMatch(/another writer committed/);

    const versions = await store.listVersions(domain);
    const committed = versions.filter((v) => v.state === "committed");
    // Linear: each commit's parent is the version committed just before it.
    for (const [i, v] of committed.entries()) {
      expect(v.parent, `v${v.version}`).toBe(i === 0 ? null : committed[i - 1]!.version);
    }
    expect(await store.getHeadVersion(domain)).toBe(committed.at(-1)!.version);
    expect(committed.map((v) => v.version)).toContain(injected.version.version);
    // Every committed candidate is the one its step's gate decided on, once; no version repeats another's operations
    // on the same parent (a step applied twice).
    const gated: number[] = [];
    for (const runId of ["runner-a", "runner-b"]) {
      expect((await store.getRun(runId))?.status).toBe("finished");
      for (const outcome of await runStateOf(store, runId).list(runStateKeys.gate)) {
        if (outcome.gate.decision === "commit") gated.push(outcome.gate.details!.candidateVersion as number);
      }
    }
    const lifecycleVersions = committed.filter(
      (v) =>
        v.ops.length > 0 &&
        v.ops.every((op) => op.op === "modify" && op.status !== undefined && op.text === undefined),
    );
    const candidates = committed.filter((v) => v.runId !== "elsewhere" && !lifecycleVersions.includes(v));
    expect(gated.sort((x, y) => x - y)).toEqual(candidates.map((v) => v.version));
    const shapes = versions.map((v) => `${v.parent}:${JSON.stringify(v.ops)}`);
    expect(new Set(shapes).size).toBe(shapes.length);
    // Ids were handed out once across both runners.
    const head = (await store.getHead(domain))!;
    expect(new Set(head.experiences.map((e) => e.id)).size).toBe(head.experiences.length);
    console.log(
      `concurrent runners: ${versions.length} versions, committed ${committed.map((v) => `v${v.version}<-${v.parent ?? "none"}(${v.runId})`).join(" ")}; re-validations: ${(a.output.stderr + b.output.stderr).match(/re-validating/g)?.length ?? 0}`,
    );
  } finally {
    await store.close();
  }
}, 400_000);

it("--on-conflict stop: a runner whose head moved during validation stops with a conflict naming both versions", async () => {
  const db = await postgres.createDatabase();
  const runner = learn(db, "stopper", 3, ["--on-conflict", "stop"]);
  await waitForStderr(runner, candidateValidation, "runner", 180_000);
  const store = await createStore(db);
  try {
    const injected = await commitElsewhere(store, "Injected while the runner validates.");
    expect(await runner.exited, runner.output.stderr).not.toBe(0);
    expect(runner.output.stderr).toMatch(
      new RegExp(
        `step \\d+: library math moved from (the empty library|v\\d+) to v${injected.version.version} \\(another writer committed\\) while candidate v\\d+, based on (the empty library|v\\d+), was validated; stopping`,
      ),
    );
    expect((await store.getRun("stopper"))?.status).toBe("failed");
    expect(await store.getHeadVersion(domain)).toBe(injected.version.version);
  } finally {
    await store.close();
  }
}, 300_000);
