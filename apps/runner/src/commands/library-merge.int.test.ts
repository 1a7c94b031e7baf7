// `tfgrpo library merge` against a real SQLite file and the SIMULATED model server (started in-process by --sim).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerLibraryCommand } from "../cli-commands/library.js";
import { registerLibraryMergeCommand } from "../cli-commands/library-merge.js";
import { libraryMerge } from "./library-merge.js";

let temporary: TemporaryDirectory;
let dir: string;
let db: string;
const lines = { stdout: [] as string[], stderr: [] as string[] };
const output = {
  stdout: (text: string) => lines.stdout.push(text),
  stderr: (text: string) => lines.stderr.push(text),
};

beforeEach(async () => {
  temporary = await temporaryDirectory("tfgrpo-library-merge-");
  dir = temporary.path;
  db = path.join(dir, "workspace.db");
  lines.stdout = [];
  lines.stderr = [];
  const store = await createStore(db);
  await store.importLibrary("math", {
    text: await readFile(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  await store.importLibrary("web", {
    text: await readFile(realLibraryPath("web"), "utf8"),
    file: "web.json",
  });
  await store.close();
});
afterEach(() => temporary[Symbol.asyncDispose]());

describe("tfgrpo library merge", () => {
  it("merges another domain through consolidation, commits, and every live entry fits the word limit", async () => {
    const result = await libraryMerge({ from: "web", into: "math", db, sim: true }, output);
    expect(result).toMatchObject({ imported: 46, committed: true });
    expect(lines.stderr.join("")).toContain("SIMULATED world");
    expect(lines.stdout.join("")).toMatch(
      /^merged 46 entries of web into math as v\d+ \(.*\); committed, now the head/,
    );
    const store = await createStore(db);
    try {
      const head = (await store.getHead("math"))!;
      expect(head.version).toBe(result.version);
      for (const entry of head.experiences.filter((e) => e.status !== "archived"))
        expect(entry.text.split(/\s+/).length).toBeLessThanOrEqual(32);
      for (const id of result.createdIds)
        expect(head.experiences.find((e) => e.id === id)!.status).toBe("candidate");
      // The source library is untouched.
      expect((await store.getHead("web"))!.experiences).toHaveLength(46);
    } finally {
      await store.close();
    }
  });

  it("takes a library file with --from and leaves the version proposed with --no-commit", async () => {
    const result = await libraryMerge(
      { from: realLibraryPath("web"), into: "math", db, sim: true, commit: false },
      output,
    );
    expect(result.committed).toBe(false);
    expect(lines.stdout.join("")).toContain("merged 46 entries of web.json into math");
    const store = await createStore(db);
    try {
      expect((await store.getVersionInfo("math", result.version!))!.state).toBe("proposed");
      expect(await store.getHeadVersion("math")).not.toBe(result.version);
    } finally {
      await store.close();
    }
  });

  it("is attached to the library command and refuses a merge of a library into itself", async () => {
    const program = new Command().exitOverride();
    registerLibraryCommand(program);
    registerLibraryMergeCommand(program);
    const library = program.commands.find((command) => command.name() === "library")!;
    expect(library.commands.map((command) => command.name())).toContain("merge");
    await expect(libraryMerge({ from: "math", into: "math", db }, output)).rejects.toThrow(
      "--from and --into are both math",
    );
    await expect(libraryMerge({ from: "Web!", into: "math", db }, output)).rejects.toThrow(/--from Web!/);
  });
});
