import { caseRunText, createRepairSandbox } from "@tfgrpo/code-repair";
import { afterAll, describe, expect, it } from "vitest";
import { repairBudget } from "../repair-agent.js";
import { type AttemptResult, repairAttempt, repairReach } from "./repair-attempt.test-support.js";
import { noRepairSlips, planRepair, type RepairSlips } from "./repair-plan.js";
import { readTestReport } from "./test-report.js";
import { writtenPrograms } from "./written-programs.test-support.js";

// The repair world on programs written for this test (plain Python, none of QuixBugs): the agent finds its edits by
// the kind of defect from a program's text, so it must find fixes here as it does on QuixBugs; and with no lesson it
// must still make the mistakes repair agents make.

const sandbox = createRepairSandbox({ caseTimeoutMs: 1000 });
afterAll(() => sandbox.close());

const none = noRepairSlips;

/** Whether the agent's plan for a written program holds an edit that passes every case. */
async function planFixes(name: string, slips: RepairSlips): Promise<boolean> {
  const { program } = writtenPrograms[name]!;
  const baseline = readTestReport(
    caseRunText(await sandbox.runCases(program, program.source, "visible"), "tests"),
  )!;
  for (const step of planRepair(program.source, program.name, baseline, slips, repairBudget)) {
    const run = await sandbox.runCases(program, step.file, "all");
    if (run.passed === run.total) return true;
  }
  return false;
}

describe("the simulated repair world on programs it has never seen (SIMULATED)", () => {
  it("finds, by the kind of defect, an edit that passes every case within its budget on each", async () => {
    const reach: Record<string, number | null> = {};
    for (const [name, { program }] of Object.entries(writtenPrograms))
      reach[name] = await repairReach(sandbox, program, repairBudget);
    expect(
      Object.values(reach).filter((rank) => rank === null),
      JSON.stringify(reach),
    ).toEqual([]);
  }, 300_000);

  it("each of its mistakes keeps it from the fixes that mistake is about", async () => {
    // A missing line is not found by an agent that only changes what is there; a comparison's strictness not by one
    // that only reverses comparisons; a `- 1` too many not by one that only ever adds one; the line that computes a
    // wrong value not by one that edits only the line the failure surfaces on.
    expect(await planFixes("count_changes", none)).toBe(true);
    expect(await planFixes("count_changes", { ...none, changeOnly: true })).toBe(false);
    expect(await planFixes("count_inversions", none)).toBe(true);
    expect(await planFixes("count_inversions", { ...none, reverse: true })).toBe(false);
    expect(await planFixes("argmax", none)).toBe(true);
    expect(await planFixes("argmax", { ...none, plusOne: true })).toBe(false);
    expect(await planFixes("running_total", none)).toBe(true);
    expect(await planFixes("running_total", { ...none, sameLine: true })).toBe(false);
  }, 300_000);

  it("without a lesson it solves some and fails others in the characteristic ways", async () => {
    const bare: { name: string; result: AttemptResult }[] = [];
    for (const [name, { program }] of Object.entries(writtenPrograms))
      for (const seed of ["0", "1", "2", "3"])
        bare.push({ name, result: await repairAttempt(sandbox, program, seed, []) });
    const failed = bare.filter((entry) => !entry.result.solved);
    const solved = bare.length - failed.length;
    // How the failures look from outside: a special case for the failing inputs left in the file; every edit made
    // on one and the same line; an answer given as soon as the visible tests passed, with nothing else run.
    const signatures = new Set(
      failed.map(({ name, result }) => {
        const original = writtenPrograms[name]!.program.source.split("\n");
        const changed = result.written.map((file) => {
          const lines = file.split("\n");
          return lines.length === original.length ? lines.findIndex((line, k) => line !== original[k]) : -1;
        });
        if (/^\s+if \[.*\] == .*:$/m.test(result.final)) return "special-case";
        if (changed.length > 0 && changed.every((line) => line >= 0 && line === changed[0]))
          return "same-line";
        if (/The visible tests pass\./.test(result.answer) && !result.calls.includes("run_python"))
          return "stopped-at-visible";
        return "other";
      }),
    );
    expect(solved).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    expect([...signatures]).toEqual(expect.arrayContaining(["special-case", "same-line"]));
  }, 900_000);
});
