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

/** Imports one written library into its own database and evaluates it against no library. */
async function evaluate(name: string): Promise<{ none: Row; library: Row }> {
  const db = path.join(directory, `${name}.db`);
  const imported = await runCli([
    "library",
    "import",
    lessonBankPath(`libraries/${name}.json`),
    "--domain",
    "math",
    "--db",
    db,
  ]);
  expect(imported.code, imported.stderr).toBe(0);
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
    "--library",
    "none",
    "--library",
    "math@head",
    "--k",
    "4",
    "--group-by",
    "none",
    "--json",
  ]);
  expect(run.code, run.stderr).toBe(0);
  const rows = JSON.parse(run.stdout).rows as Row[];
  return { none: rows[0]!, library: rows[1]! };
}

describe("libraries written independently of the sim, evaluated with tfgrpo eval (SIMULATED)", () => {
  it("correct lessons lift Mean@4 by 40 points or more, unrelated ones stay within 5, harmful ones lower it", async () => {
    const correct = await evaluate("math-correct");
    const unrelated = await evaluate("math-unrelated");
    const harmful = await evaluate("math-harmful");
    // The same tasks and seeds: no library scores the same in all three runs.
    expect(unrelated.none.meanAtK.estimate).toBe(correct.none.meanAtK.estimate);
    expect(harmful.none.meanAtK.estimate).toBe(correct.none.meanAtK.estimate);

    const points = (row: Row) => 100 * row.deltaVsReference!.estimate;
    expect(points(correct.library)).toBeGreaterThanOrEqual(40);
    expect(correct.library.deltaVsReference!.low).toBeGreaterThan(0);
    expect(Math.abs(points(unrelated.library))).toBeLessThanOrEqual(5);
    expect(points(harmful.library)).toBeLessThan(-5);
  }, 300_000);
});
