import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";

/** The CLI in `cwd` (a temp dir), with no TFGRPO_DB from the environment: the workspace database is found from cwd. */
const tfgrpo = (args: string[], options: { cwd: string }) =>
  runCli(args, { cwd: options.cwd, env: { TFGRPO_DB: undefined } });

describe("tfgrpo library (CLI, spawned)", () => {
  let workspace: TemporaryDirectory;
  let cwd: string;
  const math = realLibraryPath("math");
  beforeAll(async () => {
    workspace = await temporaryDirectory("tfgrpo-library-cli-");
    cwd = workspace.path;
  });
  afterAll(() => workspace[Symbol.asyncDispose]());

  it("reading commands refuse a database that does not exist and exit 1", async () => {
    const result = await tfgrpo(["library", "show", "--domain", "math", "--db", "elsewhere.db"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "tfgrpo: no tfgrpo database at elsewhere.db (import a library or run tfgrpo learn first, or pass --db / set TFGRPO_DB)\n",
    );
    expect(existsSync(path.join(cwd, "elsewhere.db"))).toBe(false);
  });

  it("imports a real library into .tfgrpo/tfgrpo.db; a malformed file is refused naming file, entry and field, changing nothing", async () => {
    const imported = await tfgrpo(["library", "import", math], { cwd });
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe(
      `imported 27 entries (plain) from ${math} into math as v1, now the head; ids kept\n`,
    );
    const db = path.join(cwd, ".tfgrpo", "tfgrpo.db");
    const snapshot = async () => {
      const store = await createStore(db, { mustExist: true });
      try {
        return {
          domains: await store.listDomains(),
          versions: await store.listVersions("math"),
          head: await store.getHead("math"),
        };
      } finally {
        await store.close();
      }
    };
    const before = await snapshot();
    expect(before.head?.experiences).toHaveLength(27);

    const bad = path.join(cwd, "broken.json");
    writeFileSync(bad, JSON.stringify({ G0: "A fine entry.", G1: 7, "lesson-2": "bad id" }, null, 1));
    const result = await tfgrpo(["library", "import", bad, "--domain", "math"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `tfgrpo: cannot import ${bad}, nothing changed: ` +
        `${bad}: entry "G1" field "text": expected a non-empty string, got number; ` +
        `${bad}: entry "lesson-2" field "id": experience ids look like G0, G1, G17\n`,
    );
    expect(await snapshot()).toEqual(before);
  });

  it("shows each entry's credit as a contrast with its interval, and one entry's credit by library version", async () => {
    const db = path.join(cwd, ".tfgrpo", "tfgrpo.db");
    const store = await createStore(db, { mustExist: true });
    try {
      // Nine groups on v1 whose differences (shown - withheld) are all -0.25: an entry that hurts.
      await store.updateStats("math", [
        {
          id: "G3",
          shown: 45,
          success: 9,
          lastUsedVersion: 1,
          contrast: { n: 9, sum: -2.25, sumSquares: 0.5625 },
        },
      ]);
    } finally {
      await store.close();
    }
    const table = await tfgrpo(["library", "show", "--domain", "math"], { cwd });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /\nG3 +active +45 +20% +-0\.250 \[-0\.\d{3}, -0\.\d{3}\] +9 {2}Parallel lines/,
    );
    const entry = await tfgrpo(["library", "show", "--domain", "math", "--entry", "G3"], { cwd });
    expect(entry.code, entry.stderr).toBe(0);
    expect(entry.stdout).toMatch(
      /\ncredit \(contrast, reward shown - withheld\): -0\.250 \[-0\.\d{3}, -0\.\d{3}\] over 9 groups\n/,
    );
    expect(entry.stdout).toMatch(/\nv1 +-0\.250 \[-0\.\d{3}, -0\.\d{3}\] +9\n/);
  });
});
