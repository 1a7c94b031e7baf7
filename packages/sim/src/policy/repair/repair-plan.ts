import { codeLines } from "./python-text.js";
import { repairCandidates } from "./repair-candidates.js";
import type { DefectKind, RepairCandidate } from "./repair-edit.js";
import { kindWeights, type TestReport } from "./test-report.js";

/**
 * The order in which the simulated repair agent tries its edits (SIMULATED): each candidate weighed by how strongly
 * the code points at it (its smell), by what the failing tests say about the kind of defect, and by how near it lies
 * to where an error surfaced; one kind or one line does not take the whole budget. The mistakes the agent makes on
 * this attempt (`RepairSlips`, decided by the traps and the lessons in its prompt) change what it considers.
 */

/** The mistakes the agent makes on one attempt. */
export interface RepairSlips {
  /** Answers the failing inputs with their expected values first. */
  symptom: boolean;
  /** Edits only the line the failure surfaces on. */
  sameLine: boolean;
  /** Fixes an off-by-one only by adding one. */
  plusOne: boolean;
  /** Reverses a comparison, never changes its strictness. */
  reverse: boolean;
  /** Never considers a base case or a stopping condition. */
  noBaseCase: boolean;
  /** Only changes what is there, never adds what is missing (a statement, a term, a slice). */
  changeOnly: boolean;
}

/** An attempt that makes none of the mistakes: every edit the agent's finders propose is open to it. */
export const noRepairSlips: Readonly<RepairSlips> = {
  symptom: false,
  sameLine: false,
  plusOne: false,
  reverse: false,
  noBaseCase: false,
  changeOnly: false,
};

export interface PlanStep {
  file: string;
  /** What the edit did, for the agent's messages. */
  what: string;
  /** Its one-line answer if this edit is the fix. */
  summary: string;
}

/** The symptom patch: the failing inputs answered by a special case at the top of the function. */
function symptomPatch(source: string, name: string, wrong: TestReport["wrong"]): string | null {
  const lines = source.split("\n");
  const def = lines.findIndex((line) => new RegExp(`^def ${name}\\(`).test(line));
  const params = def >= 0 ? /\((.*)\)/.exec(lines[def]!)?.[1] : undefined;
  if (def < 0 || !params || wrong.length === 0) return null;
  const names = params.split(",").map((part) => part.split("=")[0]!.trim());
  const patch = wrong.map(
    (entry) => `    if [${names.join(", ")}] == ${entry.inputs}:\n        return ${entry.expected}`,
  );
  return [...lines.slice(0, def + 1), ...patch, ...lines.slice(def + 1)].join("\n");
}

/** The line a failure surfaces on: where the last error was raised, else the last `return`. */
export function surfaceLine(source: string, report: TestReport): number {
  const code = codeLines(source);
  return (
    report.lines.at(-1) ??
    code.reduce((last, line, index) => (/^\s*return\b/.test(line) ? index : last), code.length - 1)
  );
}

function allowed(candidate: RepairCandidate, slips: RepairSlips, surface: number): boolean {
  if (slips.sameLine && (candidate.line !== surface || candidate.replace.length > 1)) return false;
  if (slips.plusOne && candidate.kind === "off-by-one" && candidate.style !== "add") return false;
  if (slips.reverse && candidate.kind === "comparison" && candidate.style === "strict") return false;
  if (slips.noBaseCase && candidate.kind === "base-case") return false;
  if (slips.changeOnly && candidate.adds) return false;
  return true;
}

function describe(candidate: RepairCandidate): { what: string; summary: string } {
  const at = `line ${candidate.line + 1}`;
  const what =
    candidate.replace.length > 1
      ? `${at}: added \`${candidate.replace.find((line) => line !== candidate.before)!.trim()}\``
      : `${at}: \`${candidate.before.trim()}\` -> \`${candidate.replace[0]!.trim()}\``;
  return { what, summary: `changed ${at} (${candidate.kind})` };
}

/** The edits to try, in order, at most `budget`. */
export function planRepair(
  source: string,
  name: string,
  report: TestReport,
  slips: RepairSlips,
  budget: number,
): PlanStep[] {
  const plan: PlanStep[] = [];
  const patched = slips.symptom ? symptomPatch(source, name, report.wrong) : null;
  if (patched) {
    plan.push({
      file: patched,
      what: "returned the expected values for the failing inputs",
      summary: "special cases for the failing inputs",
    });
  }
  const weights = kindWeights(report);
  const surface = surfaceLine(source, report);
  const near = (line: number) => report.lines.some((at) => Math.abs(at - line) <= 3);
  const pool = repairCandidates(source, name)
    .filter((candidate) => allowed(candidate, slips, surface))
    .map((candidate) => ({
      candidate,
      score: weights[candidate.kind] * (0.1 + candidate.suspicion) * (near(candidate.line) ? 1.3 : 1),
    }));
  const usedKinds = new Map<DefectKind, number>();
  const usedLines = new Map<number, number>();
  while (plan.length < budget && pool.length > 0) {
    let best = 0;
    let bestScore = -1;
    pool.forEach(({ candidate, score }, index) => {
      const damped =
        score * 0.75 ** (usedKinds.get(candidate.kind) ?? 0) * 0.85 ** (usedLines.get(candidate.line) ?? 0);
      if (damped > bestScore) {
        best = index;
        bestScore = damped;
      }
    });
    const { candidate } = pool.splice(best, 1)[0]!;
    usedKinds.set(candidate.kind, (usedKinds.get(candidate.kind) ?? 0) + 1);
    usedLines.set(candidate.line, (usedLines.get(candidate.line) ?? 0) + 1);
    plan.push({ file: candidate.file, ...describe(candidate) });
  }
  return plan;
}
