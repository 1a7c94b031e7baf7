import type { Task } from "@tfgrpo/protocol";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { RepairProgram } from "./program/quixbugs-program.js";

export const codeRepairDomain = "code-repair";

/**
 * The question of a repair task: what to do, where the program is, how it is judged, then the defective program as
 * shipped (code and docstring). Nothing of the corrected program: the attempt finds the defect from the code, the
 * docstring and the tests it runs.
 */
export function repairQuestion(program: RepairProgram): string {
  const visible = program.visibleCount;
  const total = program.cases.length;
  return [
    `Repair the Python program \`${program.name}.py\` below. It has a defect on one line: on some inputs it does not`,
    "do what its docstring says (a wrong result, an exception, or it never returns).",
    "Your workspace holds the program and its visible tests. Read and edit the file with the tools, run code against",
    `it and run the visible tests (${visible} of the program's ${total} test cases). The final file is scored on`,
    "every test case, visible or not. When you are done, answer with one line saying what you changed, as",
    "\\boxed{...}.",
    "",
    "```python",
    program.source.trimEnd(),
    "```",
  ].join("\n");
}

/**
 * A program as a tfgrpo task: the program's name in `meta.program` (what the workspace and the reward open). The
 * ground truth (`answer`) is the criterion, never a fix: every test case passes (the reward checks it).
 */
export function toRepairTask(program: RepairProgram): Task {
  return {
    id: `quixbugs-${program.name}`,
    domain: codeRepairDomain,
    question: repairQuestion(program),
    answer: `every test case of ${program.name} passes (${program.cases.length} cases: ${program.visibleCount} visible, ${program.cases.length - program.visibleCount} hidden)`,
    meta: {
      program: program.name,
      source: "QuixBugs",
      visibleTests: program.visibleCount,
      tests: program.cases.length,
    },
  };
}

/** The program a repair task is about; the error names the task. */
export function programOf(task: unknown): string {
  const meta = (task as { meta?: { program?: unknown } } | null)?.meta;
  const name = meta?.program;
  if (typeof name !== "string" || !/^[a-z_][a-z0-9_]*$/.test(name)) {
    const id = (task as { id?: unknown } | null)?.id;
    throw new TfgrpoError(
      "invalid_input",
      `task ${typeof id === "string" ? id : "(no id)"}: meta.program must name a QuixBugs program`,
    );
  }
  return name;
}
