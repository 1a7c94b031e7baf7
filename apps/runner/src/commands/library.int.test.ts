import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const cli = path.join(repositoryRoot, "apps/runner/src/cli.ts");
// An absolute loader URL, so the CLI runs from any working directory (a temp dir here).
const tsx = pathToFileURL(createRequire(path.join(repositoryRoot, "package.json")).resolve("tsx")).href;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tfgrpo(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  const env = { ...process.env, ...options.env };
  if (!options.env?.TFGRPO_DB) delete env.TFGRPO_DB;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=source", "--import", tsx, cli, ...args], {
      cwd: options.cwd,
      env,
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
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("tfgrpo library (CLI, spawned)", () => {
  let cwd: string;
  const math = realLibraryPath("math");
  beforeAll(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-library-cli-"));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

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
});
