import { fileURLToPath } from "node:url";
import { createProgramCatalog, createRepairSandbox } from "@tfgrpo/code-repair";
import { afterAll, describe, expect, it } from "vitest";
import { readPitfall } from "../experience-reading.js";
import { repairPitfalls } from "../pitfalls/repair-pitfalls.js";
import { oneLessonPerTrap, repairAttempt } from "./repair/repair-attempt.test-support.js";
import { repairCandidates } from "./repair/repair-candidates.js";
import { recognizeRepairQuestion } from "./repair-agent.js";

const dir = fileURLToPath(new URL("../../../../test-data/quixbugs/", import.meta.url));
const catalog = createProgramCatalog(dir);
const sandbox = createRepairSandbox({ caseTimeoutMs: 1000 });
afterAll(() => sandbox.close());

/** One attempt on a real workspace, scored on every case of the program. */
const attempt = (name: string, requestSeed: string, lines = oneLessonPerTrap) =>
  repairAttempt(sandbox, catalog.get(name), requestSeed, lines);

describe("the simulated repair agent (SIMULATED)", () => {
  it("each repair lesson is read as addressing its own trap; a lesson to special-case inputs as harmful", () => {
    expect(oneLessonPerTrap).toHaveLength(repairPitfalls.length);
    repairPitfalls.forEach((pitfall, index) => {
      expect(readPitfall(pitfall, [oneLessonPerTrap[index]!]).status, pitfall.id).toBe("helps");
    });
    expect(
      readPitfall(repairPitfalls[0]!, [
        { id: "G9", text: "Special-case the failing input so the test passes." },
      ]).status,
    ).toBe("hurts");
  });

  it("finds edits by the kind of defect from the code alone, on a program it was never shown", () => {
    const unseen = [
      "def count_up(items, limit):",
      "    total = 0",
      "    for i in range(len(items)):",
      "        if items[i] < limit:",
      "            total = total + items[i + 1]",
      "    return total",
      "",
    ].join("\n");
    const edits = repairCandidates(unseen, "count_up").map(
      (candidate) => `${candidate.kind}: ${candidate.replace.map((line) => line.trim()).join(" / ")}`,
    );
    expect(edits).toContain("comparison: if items[i] <= limit:");
    expect(edits).toContain("off-by-one: total = total + items[i]");
    expect(edits).toContain("swap: if limit < items[i]:");
    expect(
      recognizeRepairQuestion("Repair the Python program `x.py` below.\n```python\ndef x():\n    pass\n```"),
    ).toEqual({
      name: "x",
      source: "def x():\n    pass\n",
    });
  });

  it("with lessons for its traps it repairs gcd through the workspace tools and checks the docstring's example", async () => {
    const result = await attempt("gcd", "0");
    expect(result.solved).toBe(true);
    expect(result.final).toContain("gcd(b, a % b)");
    expect(new Set(result.calls)).toEqual(new Set(["run_tests", "write_file", "run_python"]));
    expect(result.answer).toMatch(/^Fixed: line 5/);
    expect(result.answer).toContain("\\boxed{changed line 5 (swap)}");
  }, 120_000);

  it("without lessons it falls into its traps on some attempts; the same attempts with the lessons do better", async () => {
    // Quick programs only (no endless loops to wait out): gcd (swapped arguments), possible_change (a base case).
    const seeds = ["0", "1", "2", "3", "4", "5"];
    const programs = ["gcd", "possible_change"];
    let bare = 0;
    let taught = 0;
    for (const name of programs) {
      for (const seed of seeds) {
        if ((await attempt(name, seed, [])).solved) bare++;
        if ((await attempt(name, seed)).solved) taught++;
      }
    }
    expect(taught).toBeGreaterThan(bare);
    expect(bare).toBeLessThan(programs.length * seeds.length);
  }, 600_000);
});
