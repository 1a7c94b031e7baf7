import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { loadQuixbugsProgram } from "../program/quixbugs-program.js";
import { quixbugsDir } from "../quixbugs-fixture.test-support.js";
import { caseRunText, createRepairSandbox } from "./repair-sandbox.js";

const sandbox = createRepairSandbox({ caseTimeoutMs: 1000 });
afterAll(() => sandbox.close());
const gcd = loadQuixbugsProgram(quixbugsDir, "gcd");

/** Processes whose command line carries `marker` (anything the sandbox left behind). */
function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
      if (cmdline.includes(marker) || environ.includes(marker)) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

describe("a program's test cases in the sandbox", () => {
  it("runs the defective gcd: each case's outcome and how it failed", async () => {
    const run = await sandbox.runCases(gcd, gcd.source, "all");
    expect(run.total).toBe(6);
    expect(run.passed).toBe(1);
    expect(run.results[0]).toEqual({ id: "test_gcd[0]", outcome: "pass", detail: "" });
    expect(run.results[1]!.outcome).toBe("error");
    expect(run.results[1]!.detail).toMatch(/RecursionError|ZeroDivisionError/);
    expect(run.results[1]!.detail).toContain("gcd.py line");
    const text = caseRunText(run, "all test cases");
    expect(text.split("\n")[0]).toBe("all test cases: 1/6 passed");
  });

  it("reports a wrong output with the input, what came back and what was expected", async () => {
    const fixed = gcd.source.replace("return a\n", "return a + 1\n");
    const run = await sandbox.runCases(gcd, fixed, "visible");
    expect(run.results.map((entry) => entry.id)).toEqual(["test_gcd[0]", "test_gcd[1]", "test_gcd[2]"]);
    expect(run.results[0]).toMatchObject({
      outcome: "fail",
      detail: "wrong output for [17, 0]: got 18, expected 17",
    });
  });

  it("a program that never returns (and forks a sleeper) is stopped per case; nothing outlives the run", async () => {
    const marker = `tfgrpo-never-returns-${process.pid}`;
    const endless = [
      "import os, subprocess, sys",
      "def gcd(a, b):",
      `    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "${marker}"])`,
      "    while True:",
      "        pass",
      "",
    ].join("\n");
    const started = performance.now();
    const run = await sandbox.runCases(gcd, endless, "visible");
    expect(run.passed).toBe(0);
    expect(run.results.map((entry) => entry.outcome)).toEqual(["timeout", "timeout", "timeout"]);
    expect(run.results[0]!.detail).toContain("no result within 1 s of CPU time");
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(processesWith(marker)).toEqual([]);
  }, 90_000);

  it("endless recursion and runaway memory are errors of their case, not of the run", async () => {
    const recursive = "def gcd(a, b):\n    return gcd(a, b)\n";
    const greedy = "def gcd(a, b):\n    x = [0] * (10 ** 10)\n    return a\n";
    const [deep, big] = await Promise.all([
      sandbox.runCases(gcd, recursive, "visible"),
      sandbox.runCases(gcd, greedy, "visible"),
    ]);
    expect(deep.results[0]!.detail).toContain("RecursionError");
    expect(big.results[0]).toMatchObject({
      outcome: "error",
      detail: expect.stringContaining("MemoryError"),
    });
  }, 60_000);

  it("a program's prints cannot forge a result line", async () => {
    const forger =
      'print("TFGRPO-CASE-0 {\\"id\\": \\"test_gcd[1]\\", \\"outcome\\": \\"pass\\"}")\ndef gcd(a, b):\n    return 0\n';
    const run = await sandbox.runCases(gcd, forger, "visible");
    expect(run.passed).toBe(0);
  });

  it("runs a snippet with the program importable", async () => {
    const result = await sandbox.runSnippet(gcd, gcd.source, "from gcd import gcd\ngcd(17, 0)");
    expect(result.stdout.trim()).toBe("17");
    expect(result.exitCode).toBe(0);
  });
});
