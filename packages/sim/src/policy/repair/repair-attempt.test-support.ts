import {
  caseRunText,
  createRepairWorkspace,
  type RepairProgram,
  type RepairSandbox,
  repairQuestion,
  visibleCountOf,
} from "@tfgrpo/code-repair";
import { runRepairEpisode } from "../../testing/repair-episode.js";
import type { ExperienceLine } from "../../text/experience-lines.js";
import { recognizeRepairQuestion, repairBudget } from "../repair-agent.js";
import { noRepairSlips, planRepair } from "./repair-plan.js";
import { readTestReport } from "./test-report.js";

/**
 * Test and bench support for the simulated repair world: programs written by hand in QuixBugs' layout, one attempt
 * of the simulated agent on a real workspace scored on every case, and how deep in its order the agent's first
 * edit that passes every case lies when it makes no mistake.
 */

/** One lesson per trap of the repair world, written by hand in plain words (the ideal library it could learn). */
export const oneLessonPerTrap: readonly ExperienceLine[] = [
  "Do not special-case the failing inputs; repair the defect itself.",
  "The line where the error surfaces is often not the defective line: trace the value back to the line that computes it and consider every line of the function.",
  "When a bug looks like an off-by-one, try both directions: removing or subtracting one, not only adding one.",
  "For a wrong comparison, first check the strictness (< versus <=) before flipping the comparison the other way.",
  "If the program never returns or recursion never ends, check the base case: an empty list or None must stop it.",
  "Passing the visible tests is not enough: also check the docstring example and edge cases such as an empty input before you answer.",
  "The defect may be a missing statement rather than a wrong one: a set that is checked but never filled, or a variable the loop never updates; add the missing line.",
].map((text, index) => ({ id: `G${index + 1}`, text }));

const loadTestdata = [
  "import json",
  "from pathlib import Path",
  "",
  "def load_json_testcases(algorithm):",
  '    path = Path(__file__).parent / ".." / f"json_testcases/{algorithm}.json"',
  "    with open(path) as data_file:",
  "        return [json.loads(line) for line in data_file]",
  "",
].join("\n");

/** A program written for a test: its defective source (code, then a docstring) and its cases `[[args...], expected]`. */
export function writtenProgram(name: string, source: string, cases: readonly unknown[]): RepairProgram {
  const testFile = [
    "import pytest",
    "from load_testdata import load_json_testcases",
    `from python_programs.${name} import ${name}`,
    "",
    `testdata = load_json_testcases(${name}.__name__)`,
    "",
    '@pytest.mark.parametrize("input_data,expected", testdata)',
    `def test_${name}(input_data, expected):`,
    `    assert ${name}(*input_data) == expected`,
    "",
  ].join("\n");
  return {
    name,
    source,
    helpers: { "python_testcases/load_testdata.py": loadTestdata },
    testFile,
    jsonCases: cases.map((entry) => JSON.stringify(entry)),
    cases: cases.map((_, index) => `test_${name}[${index}]`),
    visibleCount: visibleCountOf(cases.length),
  };
}

export interface AttemptResult {
  solved: boolean;
  /** The share of cases passing. */
  share: number;
  final: string;
  answer: string;
  calls: string[];
  /** Each file the attempt wrote, in order. */
  written: string[];
}

/** One attempt of the simulated agent with `lines` in its prompt, scored on every case of the program. */
export async function repairAttempt(
  sandbox: RepairSandbox,
  program: RepairProgram,
  requestSeed: string,
  lines: readonly ExperienceLine[],
): Promise<AttemptResult> {
  const workspace = await createRepairWorkspace({ program, sandbox });
  try {
    const episode = await runRepairEpisode({
      question: repairQuestion(program),
      requestSeed,
      lines,
      workspace: {
        write: (content) => workspace.write(content),
        runTests: async () => caseRunText(await workspace.runTests(), "visible tests"),
        runPython: async (code) => JSON.stringify(await workspace.runPython(code)),
      },
    });
    const final = (await workspace.state()).files[`${program.name}.py`]!;
    const run = await sandbox.runCases(program, final, "all");
    return {
      ...episode,
      solved: run.passed === run.total,
      share: run.passed / Math.max(1, run.total),
      final,
    };
  } finally {
    await workspace.close();
  }
}

/**
 * Where the agent's first edit that passes every case lies in its order when it makes no mistake (1-based), or null
 * when none of the first `depth` edits does; the visible tests' first run orders the edits, as in an attempt.
 */
export async function repairReach(
  sandbox: RepairSandbox,
  program: RepairProgram,
  depth = repairBudget,
): Promise<number | null> {
  const instance = recognizeRepairQuestion(repairQuestion(program));
  if (!instance) throw new Error(`${program.name}: not a repair question`);
  const baseline = readTestReport(
    caseRunText(await sandbox.runCases(program, program.source, "visible"), "visible tests"),
  );
  if (!baseline) throw new Error(`${program.name}: the visible tests did not run`);
  const plan = planRepair(instance.source, instance.name, baseline, noRepairSlips, depth);
  for (const [index, step] of plan.entries()) {
    const run = await sandbox.runCases(program, step.file, "all");
    if (run.passed === run.total) return index + 1;
  }
  return null;
}
