import path from "node:path";
import { eventually, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { runCli, spawnCli } from "../testing/spawn-cli.js";

it("tfgrpo studio serves the workspace's libraries and a run's report, and stops on SIGTERM", async () => {
  await using directory = await temporaryDirectory("tfgrpo-studio-cli-");
  const db = path.join(directory.path, "tfgrpo.db");
  const store = await createStore(db);
  await store.applyOperations(
    "math",
    [{ op: "add", text: "When a fraction appears, reduce it first.", status: "active", reason: "seed" }],
    { parent: null, state: "committed" },
  );
  await store.createRun({
    id: "run-a",
    kind: "learn",
    domain: "math",
    status: "finished",
    config: {},
    startedAt: "2026-03-01T00:00:00.000Z",
    finishedAt: "2026-03-01T00:01:00.000Z",
  });
  await store.close();
  const studio = spawnCli(["studio", "--db", db, "--port", "0"], { env: { TFGRPO_STUDIO_TOKEN: undefined } });
  try {
    await eventually(
      "the studio's address",
      () => /http:\/\/127\.0\.0\.1:\d+/.test(studio.output.stdout),
      45_000,
    );
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(studio.output.stdout)![0];
    const library = await fetch(`${url}/d/math`);
    expect(library.status).toBe(200);
    expect(await library.text()).toContain("When a fraction appears, reduce it first.");
    // The run's report is the runner's own renderer.
    const report = await fetch(`${url}/runs/run-a/report`);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain("run-a");
  } finally {
    studio.child.kill("SIGTERM");
  }
  expect(await studio.exited).toBe(0);
}, 90_000);

it("tfgrpo studio refuses a non-loopback host without TFGRPO_STUDIO_TOKEN, and a missing database, in one line", async () => {
  await using directory = await temporaryDirectory("tfgrpo-studio-cli-");
  const db = path.join(directory.path, "tfgrpo.db");
  await (await createStore(db)).close();
  const open = await runCli(["studio", "--db", db, "--host", "0.0.0.0", "--port", "0"], {
    env: { TFGRPO_STUDIO_TOKEN: undefined },
  });
  expect(open.code).toBe(1);
  expect(open.stderr).toBe(
    "tfgrpo: refusing to serve the studio on 0.0.0.0 without a token: set TFGRPO_STUDIO_TOKEN (or bind to 127.0.0.1)\n",
  );
  const missing = await runCli(["studio", "--db", path.join(directory.path, "typo.db"), "--port", "0"]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("no tfgrpo database at");
}, 90_000);
