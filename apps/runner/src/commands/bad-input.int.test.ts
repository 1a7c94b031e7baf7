import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";

// Bad input refused before anything is written (issue 20): the command exits non-zero with one clear line naming the
// option, file:line or database, and the database is byte-for-byte what it was.

async function withDatabase<T>(run: (db: string, dir: string) => Promise<T>): Promise<T> {
  await using dir = await temporaryDirectory("tfgrpo-bad-input-");
  const db = path.join(dir.path, "tfgrpo.db");
  const store = await createStore(db);
  await store.importLibrary("math", {
    text: JSON.stringify({ G0: "Keep exact fractions." }),
    format: "plain",
  });
  await store.close();
  return await run(db, dir.path);
}

describe("bad input leaves no marks", () => {
  it("a domain that is not a name is refused by every command before a run row exists", async () => {
    await withDatabase(async (db, dir) => {
      const data = path.join(dir, "t.jsonl");
      await writeFile(data, `${JSON.stringify({ question: "1 + 1?", answer: "2" })}\n`);
      const before = await readFile(db);
      for (const args of [
        ["learn", "--sim", "--domain", "../../etc", "--train", data, "--val", data, "--db", db],
        ["eval", "--sim", "--domain", "../../etc", "--data", data, "--library", "none", "--db", db],
        ["library", "show", "--domain", "../../etc", "--db", db],
      ]) {
        const run = await runCli(args);
        expect(run.code, args.join(" ")).not.toBe(0);
        expect(run.stderr.trim()).toMatch(/^tfgrpo: --domain \.\.\/\.\.\/etc: domain must be lowercase/);
        expect(run.stderr.trim().split("\n")).toHaveLength(1);
        expect(run.stderr).not.toMatch(/tfgrpo\.actor|at .*\.ts:\d+/);
      }
      expect((await readFile(db)).equals(before)).toBe(true);
    });
  }, 60_000);

  it("a dataset that is not UTF-8 is refused naming file:line, and nothing is written", async () => {
    await withDatabase(async (db, dir) => {
      const data = path.join(dir, "latin1.jsonl");
      await writeFile(
        data,
        Buffer.concat([
          Buffer.from(`${JSON.stringify({ question: "2 + 2?", answer: "4" })}\n`),
          Buffer.from('{"question": "Caf\xe9?", "answer": "1"}\n', "latin1"),
        ]),
      );
      const before = await readFile(db);
      const run = await runCli([
        "eval",
        "--sim",
        "--domain",
        "math",
        "--data",
        data,
        "--library",
        "none",
        "--db",
        db,
      ]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/latin1\.jsonl:2: not valid UTF-8/);
      expect((await readFile(db)).equals(before)).toBe(true);
    });
  }, 60_000);

  it("a --db that is not a tfgrpo database gets one line, no stack", async () => {
    await using dir = await temporaryDirectory("tfgrpo-bad-input-");
    const notes = path.join(dir.path, "notes.db");
    await writeFile(notes, "not a database\n");
    const run = await runCli(["library", "list", "--db", notes]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim()).toMatch(/^tfgrpo: not a tfgrpo database: .*notes\.db is not an SQLite file$/);
    expect(await readFile(notes, "utf8")).toBe("not a database\n");
  }, 60_000);

  it("learn --resume of a run that is not there says so first: no models config asked for, no trace written", async () => {
    await withDatabase(async (db, dir) => {
      const before = await readFile(db);
      // No --config and no --sim: the missing run must be what is said, not the missing models config.
      const run = await runCli(["learn", "--resume", "no-such-run", "--db", db], { cwd: dir });
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim()).toMatch(
        /^tfgrpo: learn --resume no-such-run: no run no-such-run in .*tfgrpo\.db$/,
      );
      expect((await readFile(db)).equals(before)).toBe(true);
      expect(await readdir(dir)).not.toContain("traces");
      // A run of another kind is not resumed as a learning run.
      const store = await createStore(db);
      await store.createRun({
        id: "an-eval",
        kind: "eval",
        domain: "math",
        status: "finished",
        config: {},
        startedAt: "2026-01-01T00:00:00.000Z",
        finishedAt: "2026-01-01T00:01:00.000Z",
      });
      await store.close();
      const other = await runCli(["learn", "--resume", "an-eval", "--db", db], { cwd: dir });
      expect(other.code).not.toBe(0);
      expect(other.stderr.trim()).toBe(
        "tfgrpo: learn --resume an-eval: run an-eval is an eval run, not a learning run",
      );
    });
  }, 60_000);
});
