import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * One QuixBugs program as an attempt's workspace starts from it: the defective file, what it imports, and its
 * tests as upstream ships them. Read from `python_programs/`, `python_testcases/` and `json_testcases/` only: the
 * corrected programs (`correct_python_programs/`, the answer key) are never read here (see reward/reference-check.ts).
 */
export interface RepairProgram {
  /** The program's name: its file is `<name>.py`, its function `<name>`. */
  name: string;
  /** The defective program as shipped (code, then its docstring). */
  source: string;
  /** Files the program and its tests import besides it (the graph programs' node.py), by sandbox path. */
  helpers: Record<string, string>;
  /** Upstream's pytest file (`test_<name>.py`), run by our own harness (no pytest needed). */
  testFile: string;
  /** The JSON cases, one JSON line each (`[[args...], expected]`), when the tests are parametrized over them. */
  jsonCases: string[] | undefined;
  /** Every test case's id, in file order: `test_gcd[0]` for a JSON case, the function's name otherwise. */
  cases: string[];
  /** How many cases, from the first, the attempt sees (its visible tests); the reward runs them all. */
  visibleCount: number;
}

/** Files a QuixBugs directory must have, relative to it. */
export const quixbugsLayout = {
  programs: "python_programs",
  tests: "python_testcases",
  json: "json_testcases",
} as const;

const testFunction = /^def (test\w*)\s*\(/gm;

/** The visible share of a program's cases: the first half (rounded up), at least one, never all of several. */
export function visibleCountOf(total: number): number {
  if (total <= 1) return total;
  return Math.min(total - 1, Math.max(1, Math.ceil(total / 2)));
}

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new TfgrpoError(
      "invalid_dataset",
      `${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); a QuixBugs ` +
        "directory has python_programs/NAME.py, python_testcases/test_NAME.py and json_testcases/NAME.json",
      { details: { file } },
    );
  }
}

/** The program names of a QuixBugs directory: every `python_programs/NAME.py` with a `python_testcases/test_NAME.py`. */
export function listQuixbugsPrograms(dir: string): string[] {
  const programs = path.join(dir, quixbugsLayout.programs);
  if (!existsSync(programs)) {
    throw new TfgrpoError(
      "invalid_dataset",
      `${programs}: missing (a QuixBugs directory has python_programs/, python_testcases/ and json_testcases/)`,
      { details: { file: programs } },
    );
  }
  return readdirSync(programs)
    .filter((file) => file.endsWith(".py") && !file.endsWith("_test.py") && file !== "node.py")
    .map((file) => file.slice(0, -3))
    .filter((name) => existsSync(path.join(dir, quixbugsLayout.tests, `test_${name}.py`)))
    .sort();
}

/**
 * Reads one program and its tests; a broken file (unreadable, a JSON case that is not `[[args...], expected]`, a
 * test file without tests) is refused with its path named.
 */
export function loadQuixbugsProgram(dir: string, name: string): RepairProgram {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
    throw new TfgrpoError("invalid_input", `not a QuixBugs program name: ${JSON.stringify(name)}`);
  }
  const programFile = path.join(dir, quixbugsLayout.programs, `${name}.py`);
  const testPath = path.join(dir, quixbugsLayout.tests, `test_${name}.py`);
  const source = read(programFile);
  const testFile = read(testPath);
  const helpers: Record<string, string> = {};
  if (/^\s*from node import|^\s*from \.node import/m.test(`${source}\n${testFile}`)) {
    helpers["python_programs/node.py"] = read(path.join(dir, quixbugsLayout.programs, "node.py"));
    helpers["python_testcases/node.py"] = read(path.join(dir, quixbugsLayout.tests, "node.py"));
  }
  let jsonCases: string[] | undefined;
  let cases: string[];
  const functions = [...testFile.matchAll(testFunction)].map((match) => match[1]!);
  if (functions.length === 0) {
    throw new TfgrpoError("invalid_dataset", `${testPath}: no test function (def test...)`, {
      details: { file: testPath },
    });
  }
  if (/load_json_testcases/.test(testFile)) {
    const jsonPath = path.join(dir, quixbugsLayout.json, `${name}.json`);
    helpers["python_testcases/load_testdata.py"] = read(
      path.join(dir, quixbugsLayout.tests, "load_testdata.py"),
    );
    jsonCases = read(jsonPath)
      .split("\n")
      .filter((line) => line.trim() !== "");
    jsonCases.forEach((line, index) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new TfgrpoError(
          "invalid_dataset",
          `${jsonPath}: line ${index + 1}: not JSON (${(error as Error).message})`,
          { details: { file: jsonPath, line: index + 1 } },
        );
      }
      if (!Array.isArray(value) || value.length !== 2 || !Array.isArray(value[0])) {
        throw new TfgrpoError(
          "invalid_dataset",
          `${jsonPath}: line ${index + 1}: expected [[args...], expected]`,
          { details: { file: jsonPath, line: index + 1 } },
        );
      }
    });
    if (jsonCases.length === 0) {
      throw new TfgrpoError("invalid_dataset", `${jsonPath}: no test cases`, { details: { file: jsonPath } });
    }
    cases = jsonCases.map((_, index) => `${functions[0]}[${index}]`);
  } else {
    cases = functions;
  }
  return { name, source, helpers, testFile, jsonCases, cases, visibleCount: visibleCountOf(cases.length) };
}

/** The test file cut to its first `count` test functions (the graph programs' visible tests). */
function firstTests(testFile: string, count: number): string {
  const starts = [...testFile.matchAll(testFunction)].map((match) => match.index);
  if (count >= starts.length) return testFile;
  return `${testFile.slice(0, starts[count]).trimEnd()}\n`;
}

export type CaseScope = "visible" | "all";

/** The cases of a scope: the visible prefix, or every case. */
export function casesOf(program: RepairProgram, scope: CaseScope): string[] {
  return scope === "all" ? program.cases : program.cases.slice(0, program.visibleCount);
}

/**
 * The test files of a scope, by sandbox path: the test module, the JSON cases it loads (only the visible lines for
 * "visible") and the helpers. The program itself is added by the caller (the attempt's current file).
 */
export function testFilesOf(program: RepairProgram, scope: CaseScope): Record<string, string> {
  const files: Record<string, string> = { ...program.helpers };
  if (program.jsonCases) {
    const lines = scope === "all" ? program.jsonCases : program.jsonCases.slice(0, program.visibleCount);
    files[`json_testcases/${program.name}.json`] = `${lines.join("\n")}\n`;
    files[`python_testcases/test_${program.name}.py`] = program.testFile;
  } else {
    files[`python_testcases/test_${program.name}.py`] =
      scope === "all" ? program.testFile : firstTests(program.testFile, program.visibleCount);
  }
  return files;
}
