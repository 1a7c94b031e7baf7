import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { createStore, type Store } from "@tfgrpo/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simModelsConfig } from "../runtime/start-sim-world.js";
import { meansOnlyGate } from "../testing/means-only-gate.js";
import { simLearnArgs } from "../testing/sim-learn-args.js";
import { repositoryRoot } from "../testing/spawn-cli.js";
import { writeSimSuites } from "../testing/write-sim-suites.js";

// A real full disk under a running `learn --sim`: a 16 MiB tmpfs (room for the WAL files) mounted in a private user and mount namespace
// (unshare -rm, as packages/store/src/sqlite/full-disk.int.test.ts does) holds the database and the checkpoints. The
// whole scenario runs in one shell inside the namespace (the mount exists only there): start learn, let it make
// progress (step 2 commits a version), fill the rest of the disk, wait for it to stop, copy the database out, free the space, resume, copy the
// database out again. The test then reads both copies with createStore.
//
// The in-process sim answers in milliseconds: the run would be over before the disk is full. So the run takes its
// models from a sim server of the same seed with latency on every call (a models config naming its port; the
// namespace shares the host's network), and keeps going for several seconds.

const domain = "math";
const seed = 3;
const runId = "full-disk-run";
let temporary: TemporaryDirectory | undefined;
let directory: string;
let slow: SimServer | undefined;

const cli = path.join(repositoryRoot, "apps/runner/src/cli.ts");
const tsx = pathToFileURL(createRequire(path.join(repositoryRoot, "package.json")).resolve("tsx")).href;
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const command = (args: readonly string[]) =>
  [process.execPath, "--conditions=source", "--import", tsx, cli, ...args].map(quote).join(" ");

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-learn-full-disk-");
  directory = temporary.path;
  slow = await createSimServer({ seed, latency: { meanMs: 150 } });
  // The disk must fill after a step committed (a handful of validation tasks): the gate decides on means.
  Object.assign(process.env, await meansOnlyGate(directory));
}, 60_000);

afterAll(async () => {
  await slow?.close();
  await temporary?.[Symbol.asyncDispose]();
});

/**
 * `unshare -rm sh -c script`, waited for without blocking this process (spawnSync would stall the slow sim server,
 * which answers from this process's event loop).
 */
function runInNamespace(
  script: string,
  timeoutMs: number,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("unshare", ["-rm", "sh", "-c", script], {
      cwd: repositoryRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

interface Summary {
  code: number;
  stoppedAfterMs: number;
  resumeCode: number;
}

async function versionsAreWhole(store: Store) {
  for (const info of await store.listVersions(domain)) {
    const snapshot = await store.getVersion(domain, info.version);
    expect(snapshot?.experiences.length, `v${info.version} has its entries`).toBeGreaterThan(0);
  }
  const head = await store.getHeadVersion(domain);
  if (head !== null) expect((await store.getVersionInfo(domain, head))?.state).toBe("committed");
}

const integrityOf = (store: Store) =>
  (store as unknown as { inspect(): { integrity: string } }).inspect().integrity;

describe("a disk filled under a running learn --sim", () => {
  it("stops within seconds with one line naming the full disk, keeps the database whole, marks the run interrupted, and resumes to finished once space is freed", async () => {
    const { train, val } = await writeSimSuites(directory, { domain, seed, sizes: { train: 6, val: 6 } });
    const models = path.join(directory, "models.slow.yaml");
    await writeFile(
      models,
      (await readFile(simModelsConfig, "utf8")).replace(/\$\{SIM_PORT\}/, String(slow!.port)),
    );
    const mount = path.join(directory, "small");
    const full = path.join(directory, "full");
    const resumed = path.join(directory, "resumed");
    await Promise.all([mount, full, resumed].map((dir) => mkdir(dir, { recursive: true })));
    const db = path.join(mount, "tfgrpo.db");
    const out = (name: string) => quote(path.join(directory, name));
    const learn = command([
      ...simLearnArgs({
        seed,
        domain,
        train,
        val,
        epochs: 2,
        batchSize: 3,
        groupSize: 4,
        concurrency: 6,
        db,
        runId,
        // The counts below are exact.
        fullGroups: true,
      }),
      "--config",
      models,
      "--mode",
      "direct",
    ]);
    const resume = command(["learn", "--sim", "--resume", runId, "--db", db]);
    const script = `
set -u
mount -t tmpfs -o size=16m tmpfs ${quote(mount)} || exit 90
${learn} >${out("learn.out")} 2>${out("learn.err")} &
pid=$!
i=0
until grep -q 'step 3 rollouts: [1-9]' ${out("learn.err")}; do
  i=$((i + 1))
  if [ $i -gt 1200 ] || ! kill -0 $pid 2>/dev/null; then kill -9 $pid 2>/dev/null; exit 91; fi
  sleep 0.05
done
dd if=/dev/zero of=${quote(path.join(mount, "filler"))} bs=64k 2>/dev/null
filled=$(date +%s%N)
wait $pid
code=$?
stopped=$(date +%s%N)
cp ${quote(mount)}/tfgrpo.db* ${quote(full)}/
rm -f ${quote(path.join(mount, "filler"))}
${resume} >${out("resume.out")} 2>${out("resume.err")}
resumeCode=$?
cp ${quote(mount)}/tfgrpo.db* ${quote(resumed)}/
echo "{\\"code\\":$code,\\"stoppedAfterMs\\":$(( (stopped - filled) / 1000000 )),\\"resumeCode\\":$resumeCode}"
`;
    const run = await runInNamespace(script, 200_000);
    const learnErr = await readFile(path.join(directory, "learn.err"), "utf8").catch(() => "");
    const resumeErr = await readFile(path.join(directory, "resume.err"), "utf8").catch(() => "");
    expect(run.status, `${run.stderr}\n${learnErr}`).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Summary;

    // learn stopped within seconds, non-zero, with one line naming the full disk.
    expect(summary.code, learnErr).not.toBe(0);
    expect(summary.stoppedAfterMs).toBeLessThan(5_000);
    const errorLines = learnErr.split("\n").filter((line) => line.startsWith("tfgrpo: "));
    expect(errorLines, learnErr).toHaveLength(1);
    expect(errorLines[0]).toMatch(/the disk is full/);
    expect(errorLines[0]).not.toMatch(/unexpected error/);

    const stopped = await createStore(path.join(full, "tfgrpo.db"), { mustExist: true });
    try {
      expect(integrityOf(stopped)).toBe("ok");
      const run = await stopped.getRun(runId);
      // The store released the space it keeps aside (`tfgrpo.db.reserve`) when the disk filled, so the status could
      // still be written.
      expect(learnErr).not.toMatch(/could not record its status/);
      expect(run?.status).toBe("interrupted");
      expect(String(run?.summary?.error)).toMatch(/the disk is full/);
      expect(run?.summary?.resume).toBe(`tfgrpo learn --resume ${runId}`);
      // The disk filled in step 3, after step 2 committed a version: it is still there, whole, and the head.
      expect((await stopped.listVersions(domain)).length).toBeGreaterThan(0);
      expect(await stopped.getHeadVersion(domain)).not.toBeNull();
      await versionsAreWhole(stopped);
    } finally {
      await stopped.close();
    }

    // Once the space is freed, --resume finishes the run.
    expect(summary.resumeCode, resumeErr).toBe(0);
    expect(resumeErr).toContain(`resuming run ${runId}`);
    const after = await createStore(path.join(resumed, "tfgrpo.db"), { mustExist: true });
    try {
      expect(integrityOf(after)).toBe("ok");
      expect((await after.getRun(runId))?.status).toBe("finished");
      await versionsAreWhole(after);
      const trainRollouts = (await after.listTrajectories({ runId })).filter((t) => t.step !== undefined);
      expect(trainRollouts).toHaveLength(2 * 2 * 3 * 4);
      expect((await after.listRunStateKeys(runId)).filter((k) => k.startsWith("step/"))).toHaveLength(4);
    } finally {
      await after.close();
    }
  }, 240_000);
});
