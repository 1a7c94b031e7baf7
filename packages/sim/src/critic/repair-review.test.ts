import { describe, expect, it } from "vitest";
import { diagnoseRepair, writeRepairSummary } from "./repair-review.js";

const program = "def gcd(a, b):\n    if b == 0:\n        return a\n    else:\n        return gcd(a % b, b)\n";

/** A repair attempt rendered as packages/critic renders a trajectory: problem, steps, calls, outputs. */
function rendered(steps: { file?: string; tests?: string; python?: string }[], answer: string): string {
  const lines = [
    "Experiences shown to the agent: none",
    "",
    "Problem:",
    `Repair the Python program \`gcd.py\` below.\n\n\`\`\`python\n${program.trimEnd()}\n\`\`\``,
  ];
  steps.forEach((step, index) => {
    lines.push("", `Step ${index + 1} (assistant):`);
    if (step.file !== undefined) {
      lines.push(
        "Tool call write_file:",
        `Arguments: ${JSON.stringify({ content: step.file })}`,
        "Output:",
        "wrote gcd.py",
      );
    }
    if (step.tests !== undefined) lines.push("Tool call run_tests:", "Arguments: {}", "Output:", step.tests);
    if (step.python !== undefined)
      lines.push("Tool call run_python:", "Arguments: {}", "Output:", step.python);
  });
  lines.push("", `Final answer: ${answer}`, "Stop reason: answered");
  return lines.join("\n");
}

const failing =
  "visible tests: 1/3 passed\nERROR test_gcd[1]: RecursionError: maximum recursion depth exceeded (gcd.py line 5)";

describe("the simulated critic on a repair attempt (SIMULATED)", () => {
  it("sees a symptom patch and a stop after the visible tests from the edits and the runs", () => {
    const patched = program.replace(
      "def gcd(a, b):\n",
      "def gcd(a, b):\n    if [a, b] == [13, 13]:\n        return 13\n",
    );
    const text = rendered(
      [{ tests: failing }, { file: patched, tests: "visible tests: 3/3 passed" }],
      "Fixed.",
    );
    const findings = diagnoseRepair(text, "partial");
    expect(findings.map((finding) => finding.slice(0, 16))).toEqual([
      "[special-case] T",
      "[visible-only] T",
      "[no-stop] The te",
    ]);
    expect(diagnoseRepair(text, "correct")).toEqual([]);
    const summary = writeRepairSummary(text, "partial");
    expect(summary).toContain("Visible test runs (passed/total): 1/3, 3/3.");
    expect(summary).toContain("Edits: line 2: `if b == 0:` -> `if [a, b] == [13, 13]:`");
  });

  it("sees edits that only add one, reverse comparisons, or never touch a stopping condition", () => {
    const plusOne = program.replace("gcd(a % b, b)", "gcd(a % b + 1, b)");
    const plusTwo = program.replace("gcd(a % b, b)", "gcd(a % b, b + 1)");
    const reversed = program.replace("if b == 0", "if b > 0").replace("if b > 0", "if b < 0");
    const text = rendered(
      [
        { tests: failing },
        { file: plusOne, tests: failing },
        { file: plusTwo, tests: failing },
        { file: reversed, tests: failing },
      ],
      "I could not find a fix.",
    );
    const tags = diagnoseRepair(text, "wrong").map((finding) => /^\[([a-z-]+)\]/.exec(finding)![1]);
    expect(tags).toEqual(["plus-one", "no-stop"]);
  });
});
