import { readFileSync } from "node:fs";
import path from "node:path";
import type { RepairProgram } from "../program/quixbugs-program.js";
import type { CaseRun, RepairSandbox } from "../sandbox/repair-sandbox.js";

export interface ReferenceCheck {
  program: string;
  /** The corrected program on every case: all must pass. */
  reference: CaseRun;
  /** The defective program on every case: at least one must fail. */
  defective: CaseRun;
  ok: boolean;
}

/**
 * The reward's own check that its tests tell right from wrong on a program: upstream's corrected program passes
 * every case and the defective one fails one at least. This is the only reader of `correct_python_programs/` (the
 * answer key); its text goes into the sandbox run and nowhere else: the result holds counts and case ids only.
 */
export async function checkReference(
  dataDir: string,
  program: RepairProgram,
  sandbox: RepairSandbox,
): Promise<ReferenceCheck> {
  const corrected = readFileSync(path.join(dataDir, "correct_python_programs", `${program.name}.py`), "utf8");
  const [reference, defective] = await Promise.all([
    sandbox.runCases(program, corrected, "all"),
    sandbox.runCases(program, program.source, "all"),
  ]);
  // Only what the check needs leaves this function: outcomes and ids, never a detail that could quote the program.
  const strip = (run: CaseRun): CaseRun => ({
    ...run,
    results: run.results.map((entry) => ({ id: entry.id, outcome: entry.outcome, detail: "" })),
  });
  return {
    program: program.name,
    reference: strip(reference),
    defective: strip(defective),
    ok: reference.total > 0 && reference.passed === reference.total && defective.passed < defective.total,
  };
}
