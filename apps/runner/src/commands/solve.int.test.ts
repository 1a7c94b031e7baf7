// `tfgrpo solve` in this process against the SIMULATED world (--sim), with a library imported into a real SQLite
// database and the real tools (Python sandbox for math, the sim corpus for web).
import { readFileSync } from "node:fs";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solve } from "./solve.js";

let temporary: TemporaryDirectory | undefined;
let directory: string;
let db: string;

beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-solve-");
  directory = temporary.path;
  db = path.join(directory, "tfgrpo.db");
  const store = await createStore(db);
  try {
    const file = realLibraryPath("math");
    await store.importLibrary("math", { text: readFileSync(file, "utf8"), file });
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  await temporary?.[Symbol.asyncDispose]();
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    dependencies: {
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => err.push(text),
      env: { ...process.env, TFGRPO_DB: "", TFGRPO_ACTOR_CONFIG: "" },
    },
  };
}

describe("tfgrpo solve", () => {
  it("solves a math question with the head library and prints the trajectory", async () => {
    const [task] = createSuite({ domain: "math", seed: 1, size: 1, split: "test" });
    const io = capture();
    const trajectory = await solve(
      { question: task!.question, library: "math@head", db, sim: true, simSeed: 1 },
      io.dependencies,
    );
    expect(io.err.join("")).toMatch(/SIMULATED/);
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.libraryVersion).not.toBeNull();
    expect(trajectory.experiencesShown).toHaveLength(27);
    const printed = io.out.join("");
    expect(printed).toContain(`library    math@v${trajectory.libraryVersion}, 27 experiences shown`);
    expect(printed).toContain(`answer     ${trajectory.finalAnswer}`);
    expect(printed).toContain(task!.question);
  });

  it("answers a web question from the sim corpus with no library, as JSON", async () => {
    const [task] = createSuite({ domain: "web", seed: 1, size: 1, split: "test" });
    const io = capture();
    const trajectory = await solve(
      { question: task!.question, domain: "web", library: "none", sim: true, simSeed: 1, json: true },
      io.dependencies,
    );
    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.toolCalls.map((call) => call.name)).toContain("web_search");
    expect(JSON.parse(io.out.join(""))).toMatchObject({
      id: trajectory.id,
      finalAnswer: trajectory.finalAnswer,
    });
  });

  it("explains a missing database and a library of another domain", async () => {
    const io = capture();
    await expect(
      solve(
        { question: "1 + 1?", library: "math@head", db: path.join(directory, "missing.db") },
        io.dependencies,
      ),
    ).rejects.toThrow(/no tfgrpo database at .*missing\.db/);
    await expect(
      solve({ question: "1 + 1?", library: "math@head", domain: "web", db }, io.dependencies),
    ).rejects.toThrow(/--library math@head is a math library but --domain is web/);
    await expect(solve({ question: "1 + 1?", library: "math@v99", db }, io.dependencies)).rejects.toThrow(
      /library math@v99 does not exist/,
    );
  });
});
