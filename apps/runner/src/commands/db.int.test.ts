import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { type PostgresServerHandle, realLibraryPath, startPostgresServer } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";

let server: PostgresServerHandle;
let temporary: TemporaryDirectory;
beforeAll(async () => {
  server = await startPostgresServer();
  temporary = await temporaryDirectory("tfgrpo-db-cli-");
});
afterAll(async () => {
  await server?.stop();
  await temporary?.[Symbol.asyncDispose]();
});

it("tfgrpo db copy: SQLite -> PostgreSQL -> SQLite, and library export reads the same bytes from all three (the password is never printed)", async () => {
  const first = path.join(temporary.path, "first.db");
  const last = path.join(temporary.path, "last", "tfgrpo.db");
  const pg = await server.createDatabase();
  const imported = await runCli([
    "library",
    "import",
    realLibraryPath("math"),
    "--domain",
    "math",
    "--db",
    first,
  ]);
  expect(imported.code, imported.stderr).toBe(0);

  const there = await runCli(["db", "copy", "--from", first, "--to", pg]);
  expect(there.code, there.stderr).toBe(0);
  expect(there.stdout).toMatch(/^math: 1 version\(s\), head v1, \d+ entry row\(s\)$/m);
  expect(there.stdout).toContain(`to postgres://tfgrpo:***@127.0.0.1:${server.port}/`);
  const back = await runCli(["db", "copy", "--from", pg, "--to", last]);
  expect(back.code, back.stderr).toBe(0);
  for (const output of [there, back]) expect(output.stdout + output.stderr).not.toContain(server.password);

  const exports = await Promise.all(
    [first, pg, last].map((db) =>
      runCli(["library", "export", "--domain", "math", "--format", "markdown", "--db", db]),
    ),
  );
  for (const e of exports) expect(e.code, e.stderr).toBe(0);
  expect(exports[0]!.stdout.length).toBeGreaterThan(100);
  expect(exports[1]!.stdout).toBe(exports[0]!.stdout);
  expect(exports[2]!.stdout).toBe(exports[0]!.stdout);

  const again = await runCli(["db", "copy", "--from", first, "--to", pg]);
  expect(again.code).not.toBe(0);
  expect(again.stderr).toMatch(/already holds library math; nothing copied/);
  expect(again.stderr).not.toContain(server.password);
}, 120_000);

it("tfgrpo db prune: --dry-run shows the policy and counts and changes nothing; a pass marks no report and compacts", async () => {
  const file = path.join(temporary.path, "prune.db");
  const { createStore } = await import("@tfgrpo/store");
  const store = await createStore(file);
  const old = new Date(Date.now() - 40 * 86_400_000);
  for (let i = 0; i < 30; i++) {
    const servedAt = new Date(old.getTime() + i * 60_000).toISOString();
    await store.recordSelection({
      selectionId: `s${i}`,
      domain: "math",
      version: null,
      entryIds: [],
      explorationIds: [],
      task: `task ${i}`,
      servedAt,
    });
    if (i % 10 !== 9)
      await store.reportOutcome(
        { selectionId: `s${i}`, reward: i % 2, success: i % 2 === 1 },
        { now: new Date(Date.parse(servedAt) + 1_000) },
      );
  }
  await store.applyOperations("math", [{ op: "add", text: "Check units.", reason: "seed" }], {
    parent: null,
    state: "committed",
  });
  await store.close();
  const dry = await runCli(["db", "prune", "--db", file, "--dry-run", "--keep-latest-outcomes", "5"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain(
    "policy: report deadline 1 h; outcomes kept 30 d, at most 100000 per domain, the latest 5 always",
  );
  expect(dry.stdout).toMatch(
    /now math: served 30, reported 27 \(\d+ successes\), no report 3, awaiting 0; 27 outcome rows live/,
  );
  expect(dry.stdout).toContain("dry run: nothing changed");
  const pass = await runCli([
    "db",
    "prune",
    "--db",
    file,
    "--keep-latest-outcomes",
    "5",
    "--unreported-max-age-days",
    "1",
  ]);
  expect(pass.code, pass.stderr).toBe(0);
  expect(pass.stdout).toContain(
    "pruned: 3 selection(s) marked no report, 22 outcome(s) and 3 unreported selection(s) compacted",
  );
  expect(pass.stdout).toMatch(
    /after math: served 30, reported 27 \(\d+ successes\), no report 3, awaiting 0; 5 outcome rows live, 25 selections compacted/,
  );
}, 60_000);
