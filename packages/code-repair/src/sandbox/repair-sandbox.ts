import { randomBytes } from "node:crypto";
import {
  type CodeInterpreterOptions,
  type CodeResult,
  codeResultForModel,
  createCodeInterpreter,
} from "@tfgrpo/tools";
import { type CaseScope, casesOf, type RepairProgram, testFilesOf } from "../program/quixbugs-program.js";
import { caseHarnessCell } from "./case-harness.js";

/** How one test case ended: passed, wrong output or a failed assertion, an exception, out of time, skipped upstream. */
export type CaseOutcome = "pass" | "fail" | "error" | "timeout" | "skip" | "killed";

export interface CaseResult {
  id: string;
  outcome: CaseOutcome;
  /** What went wrong (`wrong output for [17, 0]: got 0, expected 17`, `ZeroDivisionError: ... (gcd.py line 5)`). */
  detail: string;
}

/** One run of a program's cases: each case's result, and the counts a reward reads (skipped cases do not count). */
export interface CaseRun {
  results: CaseResult[];
  passed: number;
  /** Cases that count: all but those upstream skips. */
  total: number;
  /** Why the sandbox stopped the whole run early (memory, CPU...), when it did. */
  stopped?: string;
}

export interface RepairSandboxOptions {
  /** CPU-time limit per test case (default 4000 ms; five times that of wall-clock time). */
  caseTimeoutMs?: number;
  /** Wall-clock limit of a snippet (default 10 s). */
  snippetTimeoutMs?: number;
  /** Address space per sandbox process (default 512 MB). */
  memoryMb?: number;
  /** The code interpreter's other settings (its pool, bubblewrap path, allowUnsandboxed...). */
  interpreter?: Omit<CodeInterpreterOptions, "timeoutMs" | "memoryMb">;
  /** A fresh nonce per run (injected by tests). */
  nonce?: () => string;
}

/** Runs an attempt's file in the sandbox: its test cases, or a snippet of code beside it. */
export interface RepairSandbox {
  /** The cases of `scope` against `file` (the program's current text). */
  runCases(program: RepairProgram, file: string, scope: CaseScope): Promise<CaseRun>;
  /** A snippet run with the program importable (`from NAME import NAME`), its visible tests beside it. */
  runSnippet(program: RepairProgram, file: string, code: string): Promise<CodeResult>;
  close(): Promise<void>;
}

/** The snippet's cell: the files laid out as upstream does, then the code, its last expression printed. */
function snippetCell(files: Record<string, string>, code: string): string {
  return [
    "import ast as _ast, os as _os, sys as _sys, tempfile as _tempfile",
    `_files = ${JSON.stringify(JSON.stringify(files))}`,
    "_root = _tempfile.mkdtemp(prefix='repair-')",
    "import json as _json",
    "for _rel, _text in _json.loads(_files).items():",
    "    _full = _os.path.join(_root, _rel)",
    "    _os.makedirs(_os.path.dirname(_full), exist_ok=True)",
    "    open(_full, 'w').write(_text)",
    "open(_os.path.join(_root, 'python_programs', '__init__.py'), 'a').close()",
    "_os.chdir(_root)",
    "_sys.path[:0] = [_os.path.join(_root, 'python_programs'), _os.path.join(_root, 'python_testcases'), _root]",
    `_code = ${JSON.stringify(code)}`,
    "_tree = _ast.parse(_code, '<snippet>', 'exec')",
    "_last = _tree.body.pop() if _tree.body and isinstance(_tree.body[-1], _ast.Expr) else None",
    "_namespace = {'__name__': '__main__'}",
    "exec(compile(_tree, '<snippet>', 'exec'), _namespace)",
    "if _last is not None:",
    "    _value = eval(compile(_ast.Expression(_last.value), '<snippet>', 'eval'), _namespace)",
    "    if _value is not None: print(repr(_value))",
    "",
  ].join("\n");
}

const caseLine = (nonce: string) => new RegExp(`^${nonce} (\\{.*\\})$`, "gm");

export function createRepairSandbox(options: RepairSandboxOptions = {}): RepairSandbox {
  const caseTimeoutMs = options.caseTimeoutMs ?? 4000;
  const memoryMb = options.memoryMb ?? 512;
  const nonce = options.nonce ?? (() => `TFGRPO-CASE-${randomBytes(12).toString("hex")}`);
  // Two interpreters for two wall-clock limits: a whole test run (every case may use its own limit) and a snippet.
  const tests = createCodeInterpreter({
    ...options.interpreter,
    memoryMb,
    timeoutMs: caseTimeoutMs * 40 + 10_000,
  });
  const snippets = createCodeInterpreter({
    ...options.interpreter,
    memoryMb,
    timeoutMs: options.snippetTimeoutMs ?? 10_000,
    maxOutputBytes: 8000,
  });

  return {
    async runCases(program, file, scope) {
      const cases = casesOf(program, scope);
      const runNonce = nonce();
      const files = { ...testFilesOf(program, scope), [`python_programs/${program.name}.py`]: file };
      const result = await tests.run(
        caseHarnessCell({
          nonce: runNonce,
          program: program.name,
          caseSeconds: caseTimeoutMs / 1000,
          cases,
          files,
        }),
      );
      const reported = new Map<string, CaseResult>();
      for (const match of result.stdout.matchAll(caseLine(runNonce))) {
        const line = JSON.parse(match[1]!) as CaseResult;
        reported.set(line.id, { id: line.id, outcome: line.outcome, detail: line.detail });
      }
      const stopped = result.killed
        ? `the sandbox stopped the run (${result.killedReason ?? "a limit"})`
        : result.exitCode !== 0
          ? `the harness failed: ${result.stderr.trim().split("\n").at(-1) ?? `exit ${result.exitCode}`}`
          : undefined;
      const results = cases.map(
        (id): CaseResult =>
          reported.get(id) ?? {
            id,
            outcome: result.killed && result.killedReason === "timeout" ? "timeout" : "killed",
            detail: stopped ?? "no result",
          },
      );
      const counted = results.filter((entry) => entry.outcome !== "skip");
      return {
        results,
        passed: counted.filter((entry) => entry.outcome === "pass").length,
        total: counted.length,
        ...(stopped ? { stopped } : {}),
      };
    },
    async runSnippet(program, file, code) {
      const files = { ...testFilesOf(program, "visible"), [`python_programs/${program.name}.py`]: file };
      return snippets.run(snippetCell(files, code));
    },
    async close() {
      await Promise.all([tests.close(), snippets.close()]);
    },
  };
}

/** A snippet's result as the model reads it (the code interpreter's JSON, without the internal cell). */
export const snippetResultText = codeResultForModel;

/** A case run as the model and the critic read it: a count, then one line per case that did not pass. */
export function caseRunText(run: CaseRun, label: string): string {
  const lines = [`${label}: ${run.passed}/${run.total} passed`];
  for (const entry of run.results) {
    if (entry.outcome === "pass") continue;
    const how =
      entry.outcome === "fail"
        ? "FAIL"
        : entry.outcome === "error"
          ? "ERROR"
          : entry.outcome === "timeout"
            ? "TIMEOUT"
            : entry.outcome === "skip"
              ? "SKIPPED"
              : "KILLED";
    lines.push(`${how} ${entry.id}: ${entry.detail}`);
  }
  if (run.stopped) lines.push(run.stopped);
  return lines.join("\n");
}
