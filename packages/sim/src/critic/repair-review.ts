import { safeParseJson } from "@tfgrpo/protocol";

/**
 * The simulated critic's reading of a code-repair attempt (SIMULATED). It knows what any reviewer of a repair
 * knows: the defective program (the problem statement), the edits the attempt wrote (each written file against that
 * program, line by line), what the test runs printed (how many passed; FAIL, ERROR, TIMEOUT and the line an error
 * surfaced on), whether the attempt ran anything besides the visible tests, and its grading (every test case
 * passed, some, none). From that evidence alone it names what went wrong, one bracketed tag a problem, in its own words. It never
 * sees a corrected program, the world's trap list or the policy's reader.
 */

interface RepairCall {
  name: string;
  args: Record<string, unknown>;
  output: string;
}

/** One edit: a line of the program as it was and as the attempt wrote it. */
export interface LineEdit {
  line: number;
  before: string;
  after: string;
  /** Lines the write added beyond one-for-one replacements. */
  added: string[];
}

/** Whether a stage-1 prompt shows a repair attempt: its calls are the workspace's. */
export function isRepairTrajectory(trajectory: string): boolean {
  return (
    /^Tool call (run_tests|write_file|edit_file):\s*$/m.test(trajectory) && /```python\n/.test(trajectory)
  );
}

function readCalls(text: string): RepairCall[] {
  const calls: RepairCall[] = [];
  const lines = text.split(/\r?\n/);
  let collecting = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const call = /^Tool call ([\w.-]+):\s*$/.exec(line);
    if (call) {
      const args = /^Arguments:\s*(.*)$/.exec(lines[i + 1] ?? "")?.[1] ?? "{}";
      const parsed = safeParseJson<Record<string, unknown>>(args);
      calls.push({ name: call[1]!, args: parsed.success && parsed.value ? parsed.value : {}, output: "" });
      collecting = false;
      continue;
    }
    if (/^Output(?: \(stored truncated\))?:\s*$/.test(line) && calls.length > 0) {
      collecting = true;
      continue;
    }
    if (/^(Step \d+ \(assistant\):|Environment changes|Final answer:|Stop reason:)/.test(line)) {
      collecting = false;
      continue;
    }
    if (collecting) {
      const last = calls.at(-1)!;
      last.output = last.output ? `${last.output}\n${line}` : line;
    }
  }
  return calls;
}

/** The program as the problem states it (its code block). */
function programOf(text: string): string | null {
  return /```python\n([\s\S]*?)\n```/.exec(text)?.[1] ?? null;
}

/** A written file against the program: the lines it changed (same line count) or added. */
export function editsOf(program: string, written: string): LineEdit[] {
  const before = program.split("\n");
  const after = written.replace(/\n$/, "").split("\n");
  if (after.length === before.length) {
    return before.flatMap((line, index) =>
      line === after[index] ? [] : [{ line: index, before: line, after: after[index]!, added: [] }],
    );
  }
  // Lines inserted: find the first difference and what came in.
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  const extra = after.length - before.length;
  return [
    {
      line: start,
      before: before[start] ?? "",
      after: after[start] ?? "",
      added: after.slice(start, start + Math.max(extra, 0)),
    },
  ];
}

const passedOf = (output: string) => /tests: (\d+)\/(\d+) passed/.exec(output);
const directions: Record<string, string> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };

function comparisonChange(edit: LineEdit): "direction" | "strictness" | null {
  const a = edit.before.match(/<=|>=|<|>/g) ?? [];
  const b = edit.after.match(/<=|>=|<|>/g) ?? [];
  if (a.length !== b.length || a.length === 0) return null;
  for (let index = 0; index < a.length; index++) {
    if (a[index] === b[index]) continue;
    if (directions[a[index]!] === b[index]) return "direction";
    if (a[index]!.replace("=", "") === b[index]!.replace("=", "")) return "strictness";
  }
  return null;
}

const addsOne = (edit: LineEdit) =>
  (edit.after.match(/[+] 1\b/g) ?? []).length > (edit.before.match(/[+] 1\b/g) ?? []).length;
const lowersOne = (edit: LineEdit) =>
  (edit.after.match(/- 1\b/g) ?? []).length > (edit.before.match(/- 1\b/g) ?? []).length ||
  (edit.after.match(/\b1 \+ |[+] 1\b/g) ?? []).length < (edit.before.match(/\b1 \+ |[+] 1\b/g) ?? []).length;
const guards = (edit: LineEdit) =>
  /\bor not \w+|\bis None or\b|^\s*while \w+:|len\(\w+\) <= 1|return \[\[\]\]/.test(edit.after) &&
  !/\bor not \w+|\bis None or\b|^\s*while \w+:|len\(\w+\) <= 1|return \[\[\]\]/.test(edit.before);

const tokensOf = (line: string) => line.match(/\w+|[^\s\w]/g) ?? [];

/** Whether an edit puts code in that was not there (a line, or a piece of an expression around what was). */
function putsCodeIn(edit: LineEdit): boolean {
  if (edit.added.length > 0) return true;
  const before = tokensOf(edit.before);
  const after = tokensOf(edit.after);
  if (after.length <= before.length) return false;
  let k = 0;
  for (const token of after) if (token === before[k]) k++;
  return k === before.length;
}

/** What went wrong in one repair attempt, as `[tag] sentence` findings, from its edits and its test runs. */
export function diagnoseRepair(trajectory: string, evaluation: string): string[] {
  const program = programOf(trajectory);
  const calls = readCalls(trajectory);
  if (!program) return [];
  const findings: string[] = [];
  const writes = calls.filter((call) => call.name === "write_file" && typeof call.args.content === "string");
  const edits = writes.map((call) => editsOf(program, call.args.content as string));
  const runs = calls.filter((call) => call.name === "run_tests");
  // The grading of the attempt (correct / partial / wrong): a correct one has nothing to explain.
  if (evaluation.trim() === "correct") return findings;

  const lastWrite = edits.at(-1) ?? [];
  if (lastWrite.some((edit) => edit.added.some((line) => /^\s*if .*==\s*[[("'\d-]/.test(line)))) {
    findings.push(
      "[special-case] The final file answers the failing test inputs with their expected values instead of fixing the logic.",
    );
  }
  const lastRun = runs.at(-1);
  const lastIndex = lastRun ? calls.lastIndexOf(lastRun) : -1;
  const head = lastRun ? passedOf(lastRun.output) : null;
  const visiblePassed = head !== null && head[1] === head[2];
  const checkedMore = calls.slice(lastIndex + 1).some((call) => call.name === "run_python");
  if (visiblePassed && !checkedMore) {
    findings.push(
      "[visible-only] The attempt stopped as soon as the visible tests passed, ran nothing else, and other test cases fail.",
    );
  }
  const errorLines = new Set(
    [
      ...runs
        .map((run) => run.output)
        .join("\n")
        .matchAll(/\.py line (\d+)\)/g),
    ].map((m) => Number(m[1]) - 1),
  );
  // Where the failure showed: a line an error named, else the last return (where a wrong value comes out).
  const programLines = program.split("\n");
  const lastReturn = programLines.reduce(
    (last, line, index) => (/^\s*return\b/.test(line) ? index : last),
    -1,
  );
  const shown = errorLines.size > 0 ? errorLines : new Set([lastReturn]);
  const touched = new Set(edits.flat().map((edit) => edit.line));
  if (edits.length >= 1 && touched.size === 1 && shown.has([...touched][0]!)) {
    findings.push(
      "[same-line] Every edit changed the one line where the failure showed (the error or the returned value); no other line was tried.",
    );
  }
  const offByOne = edits.flat().filter((edit) => addsOne(edit) || lowersOne(edit));
  if (offByOne.length >= 2 && offByOne.every((edit) => addsOne(edit) && !lowersOne(edit))) {
    findings.push("[plus-one] Each index or bound edit added one; none removed or subtracted one.");
  }
  const comparisons = edits
    .flat()
    .map(comparisonChange)
    .filter((change) => change !== null);
  if (comparisons.length >= 1 && comparisons.every((change) => change === "direction")) {
    findings.push(
      "[reversed] The comparisons edited were reversed (< to >), never made strict or non-strict.",
    );
  }
  if (edits.length >= 3 && !edits.flat().some(putsCodeIn)) {
    findings.push(
      "[only-changed] Each edit swapped something on an existing line; no edit put in a statement or a part of an expression that was not there.",
    );
  }
  const endless = runs.some((run) => /^TIMEOUT |RecursionError/m.test(run.output));
  if (endless && edits.length > 0 && !edits.flat().some(guards)) {
    findings.push(
      "[no-stop] The tests time out or recurse without end, and no edit added or changed a stopping condition.",
    );
  }
  return findings;
}

/** Stage 1 for a repair attempt: its edits, its test runs, its outcome and its findings, in the critic's format. */
export function writeRepairSummary(trajectory: string, evaluation: string): string {
  const calls = readCalls(trajectory);
  const program = programOf(trajectory) ?? "";
  const findings = diagnoseRepair(trajectory, evaluation);
  const edits = calls
    .filter((call) => call.name === "write_file" && typeof call.args.content === "string")
    .flatMap((call) => editsOf(program, call.args.content as string))
    .map((edit) => `line ${edit.line + 1}: \`${edit.before.trim()}\` -> \`${edit.after.trim()}\``);
  const runs = calls
    .filter((call) => call.name === "run_tests")
    .map((call) => passedOf(call.output)?.slice(1, 3).join("/") ?? "?");
  return [
    "Repair attempt review.",
    `Edits: ${edits.length > 0 ? edits.slice(0, 12).join("; ") : "none"}.`,
    `Visible test runs (passed/total): ${runs.length > 0 ? runs.join(", ") : "none"}.`,
    `Outcome: ${evaluation.replace(/\s+/g, " ").slice(0, 240)}`,
    "Findings:",
    ...(findings.length > 0 ? findings.map((finding) => `- ${finding}`) : ["- none visible"]),
  ].join("\n");
}
