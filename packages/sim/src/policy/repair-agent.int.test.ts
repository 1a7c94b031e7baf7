import { fileURLToPath } from "node:url";
import {
  caseRunText,
  createProgramCatalog,
  createRepairSandbox,
  createRepairWorkspace,
  toRepairTask,
} from "@tfgrpo/code-repair";
import { afterAll, describe, expect, it } from "vitest";
import { readPitfall } from "../experience-reading.js";
import { repairPitfalls } from "../pitfalls/repair-pitfalls.js";
import { runRepairEpisode } from "../testing/repair-episode.js";
import { recognizeRepairQuestion } from "./repair-agent.js";
import { repairCandidates } from "./repair-candidates.js";

const dir = fileURLToPath(new URL("../../../../test-data/quixbugs/", import.meta.url));
const catalog = createProgramCatalog(dir);
const sandbox = createRepairSandbox({ caseTimeoutMs: 1000 });
afterAll(() => sandbox.close());

const helpful = [
  "Do not special-case the failing inputs; repair the defect itself.",
  "The line where the error surfaces is often not the defective line: trace the value back to the line that computes it and consider every line of the function.",
  "When a bug looks like an off-by-one, try both directions: removing or subtracting one, not only adding one.",
  "For a wrong comparison, first check the strictness (< versus <=) before flipping the comparison the other way.",
  "If the program never returns or recursion never ends, check the base case: an empty list or None must stop it.",
  "Passing the visible tests is not enough: also check the docstring example and edge cases such as an empty input before you answer.",
].map((text, index) => ({ id: `G${index + 1}`, text }));

/** One attempt on a real workspace, scored on every case of the program. */
async function attempt(name: string, requestSeed: string, lines = helpful) {
  const program = catalog.get(name);
  const workspace = await createRepairWorkspace({ program, sandbox });
  try {
    const episode = await runRepairEpisode({
      question: toRepairTask(program).question,
      requestSeed,
      lines,
      workspace: {
        write: (content) => workspace.write(content),
        runTests: async () => caseRunText(await workspace.runTests(), "visible tests"),
        runPython: async (code) => JSON.stringify(await workspace.runPython(code)),
      },
    });
    const final = (await workspace.state()).files[`${name}.py`]!;
    const run = await sandbox.runCases(program, final, "all");
    return { ...episode, solved: run.passed === run.total, final };
  } finally {
    await workspace.close();
  }
}

describe("the simulated repair agent (SIMULATED)", () => {
  it("each repair lesson is read as addressing its own trap; a lesson to special-case inputs as harmful", () => {
    repairPitfalls.forEach((pitfall, index) => {
      expect(readPitfall(pitfall, [helpful[index]!]).status, pitfall.id).toBe("helps");
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
    const edits = repairCandidates(unseen).map(
      (candidate) => `${candidate.kind}: ${candidate.file.split("\n")[candidate.line]!.trim()}`,
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
