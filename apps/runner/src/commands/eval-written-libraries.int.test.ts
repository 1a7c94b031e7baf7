import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { lessonBankPath } from "@tfgrpo/sim/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";

// The acceptance test of the honest sim world (issue 12): libraries written for it by someone who never read the sim
// (test-data/lesson-bank/libraries), imported as a user would and evaluated with `tfgrpo eval` on the SIMULATED math
// test split, against no library, on the same tasks and seeds. Correct lessons in other words must lift the policy a
// lot, sound advice about other topics must do nothing, and plausible harmful advice must hurt.

interface Row {
  label: string;
  meanAtK: { estimate: number; low: number; high: number };
  deltaVsReference: { estimate: number; low: number; high: number } | null;
}

let directory: string;
let data: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-written-libraries-"));
  data = path.join(directory, "math-test.jsonl");
  await writeSuiteJsonl(data, createSuite({ domain: "math", seed: 11, size: 36, split: "test" }));
});

/**
 * The three written libraries as three versions of one library (the first imported, the others restored over it with
 * `library import --replace`, so each version is exactly its file), then one evaluation of no library and the three
 * versions on the same tasks and seeds.
 */
async function evaluateWrittenLibraries(): Promise<
  Record<"none" | "correct" | "unrelated" | "harmful", Row>
> {
  const db = path.join(directory, "written.db");
  for (const [index, name] of ["math-correct", "math-unrelated", "math-harmful"].entries()) {
    const imported = await runCli([
      "library",
      "import",
      lessonBankPath(`libraries/${name}.json`),
      "--domain",
      "math",
      "--db",
      db,
      ...(index > 0 ? ["--replace"] : []),
    ]);
    expect(imported.code, imported.stderr).toBe(0);
  }
  const run = await runCli([
    "eval",
    "--sim",
    "--seed",
    "11",
    "--domain",
    "math",
    "--data",
    data,
    "--db",
    db,
    ...["none", "math@v1", "math@v2", "math@v3"].flatMap((library) => ["--library", library]),
    "--k",
    "4",
    "--group-by",
    "none",
    "--json",
  ]);
  expect(run.code, run.stderr).toBe(0);
  const rows = JSON.parse(run.stdout).rows as Row[];
  expect(rows.map((row) => row.label)).toEqual(["none", "math@v1", "math@v2", "math@v3"]);
  return { none: rows[0]!, correct: rows[1]!, unrelated: rows[2]!, harmful: rows[3]! };
}

describe("libraries written independently of the sim, evaluated with tfgrpo eval (SIMULATED)", () => {
  it("correct lessons lift Mean@4 by 40 points or more, unrelated ones stay within 5, harmful ones lower it", async () => {
    const { correct, unrelated, harmful } = await evaluateWrittenLibraries();
    const points = (row: Row) => 100 * row.deltaVsReference!.estimate;
    expect(points(correct)).toBeGreaterThanOrEqual(40);
    expect(correct.deltaVsReference!.low).toBeGreaterThan(0);
    expect(Math.abs(points(unrelated))).toBeLessThanOrEqual(5);
    expect(points(harmful)).toBeLessThan(-5);
  }, 300_000);
});
