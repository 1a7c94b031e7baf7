import { pointerSegment } from "@tfgrpo/protocol";
import type { ProgramCatalog } from "../program/program-catalog.js";
import { programOf } from "../repair-task.js";
import { type CaseRun, caseRunText, type RepairSandbox } from "../sandbox/repair-sandbox.js";

/** The parts of a tfgrpo trajectory the reward reads: the attempt's environment record. */
export interface RepairTrajectoryView {
  environment?: {
    diff?: readonly { path: string; op: string; after?: unknown }[];
    diffTruncated?: boolean;
    finalState?: unknown;
  };
}

export interface RepairRewardResult {
  /** The share of the program's test cases the final file passes (1: every case, the task solved). */
  reward: number;
  grade: "pass" | "partial" | "fail";
  /** The counts, then each case that did not pass and how (FAIL / ERROR / TIMEOUT), as evidence for the critic. */
  reason: string;
  run?: CaseRun;
}

/** The program file at the end of the attempt: from the stored final state, else from the diff against the start. */
export function finalFileOf(
  trajectory: RepairTrajectoryView,
  name: string,
  start: string,
): string | undefined {
  const environment = trajectory.environment;
  if (!environment) return undefined;
  const fileName = `${name}.py`;
  const state = environment.finalState as { files?: Record<string, unknown> } | undefined;
  if (state && typeof state.files?.[fileName] === "string") return state.files[fileName] as string;
  if (!environment.diff || environment.diffTruncated) return undefined;
  let file: string | undefined = start;
  const pointer = `/files${pointerSegment(fileName)}`;
  for (const change of environment.diff) {
    if (change.path === pointer) file = change.op === "remove" ? undefined : (change.after as string);
    else if (change.path === "" || change.path === "/files") {
      const after = (change.after ?? {}) as Record<string, unknown>;
      const files = (change.path === "" ? after.files : after) as Record<string, unknown> | undefined;
      const value = files?.[fileName];
      file = typeof value === "string" ? value : undefined;
    }
  }
  return file;
}

/**
 * The tests as the reward: the attempt's final program file run in the sandbox on every test case of its program
 * (visible and hidden), each case with its own time limit. The reward is the passing share; 1 (every case passes) is
 * the task solved, as upstream counts a repair. No environment record or no file is 0 with a reason saying so.
 */
export function createRepairReward(options: {
  catalog: ProgramCatalog;
  sandbox: RepairSandbox;
  /**
   * "share" (default): the passing share, graded. "solved": 1 when every case passes, else 0 — a graded share pays
   * a special case for the visible inputs about half, which a learner can come to prefer over an honest failed fix.
   */
  mode?: "share" | "solved";
}) {
  return async (task: unknown, _finalAnswer: string | null, trajectory: RepairTrajectoryView = {}) => {
    const program = options.catalog.get(programOf(task));
    const file = finalFileOf(trajectory, program.name, program.source);
    if (file === undefined) {
      return {
        reward: 0,
        grade: "fail",
        reason: trajectory.environment
          ? "the final program file was not stored and its diff is incomplete"
          : "no environment record: the attempt's workspace is unknown",
      } satisfies RepairRewardResult;
    }
    const run = await options.sandbox.runCases(program, file, "all");
    const solved = run.total > 0 && run.passed === run.total;
    const share = run.total === 0 ? 0 : run.passed / run.total;
    const reward = options.mode === "solved" ? (solved ? 1 : 0) : share;
    const grade = solved ? "pass" : reward > 0 ? "partial" : "fail";
    return {
      reward,
      grade,
      reason: `${grade === "pass" ? "solved: " : ""}${caseRunText(run, "all test cases")}`,
      run,
    } satisfies RepairRewardResult;
  };
}
