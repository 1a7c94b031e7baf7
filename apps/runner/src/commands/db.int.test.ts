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
