import { type DefectKind, defectKinds } from "./repair-edit.js";

/**
 * What a run of the visible tests showed the simulated repair agent (SIMULATED), read from the workspace's
 * `run_tests` output (`visible tests: 1/3 passed`, then `FAIL` / `ERROR` / `TIMEOUT` lines), and what that says
 * about the kind of defect: an endless loop or recursion points at a stopping condition, an index error at a bound,
 * a `NoneType` error at a missing guard, a generator where a value was expected at a call too many.
 */
export interface TestReport {
  passed: number;
  total: number;
  timeouts: number;
  recursion: boolean;
  /** Each error's exception and message (`IndexError: list index out of range`). */
  exceptions: string[];
  /** Lines (0-based) the failures surfaced on. */
  lines: number[];
  /** Wrong outputs with their inputs, what came back and what was expected, as printed. */
  wrong: { inputs: string; got: string; expected: string }[];
}

export function readTestReport(output: string | null): TestReport | null {
  const head = output ? /tests: (\d+)\/(\d+) passed/.exec(output) : null;
  if (!output || !head) return null;
  return {
    passed: Number(head[1]),
    total: Number(head[2]),
    timeouts: (output.match(/^TIMEOUT /gm) ?? []).length,
    recursion: /RecursionError/.test(output),
    exceptions: [...output.matchAll(/^ERROR [^:]+: (\w+(?::[^(\n]*)?)/gm)].map((match) => match[1]!.trim()),
    lines: [...output.matchAll(/\.py line (\d+)\)/g)].map((match) => Number(match[1]) - 1),
    wrong: [...output.matchAll(/^FAIL [^:]+: wrong output for (.+): got (.+), expected (.+)$/gm)].map(
      (match) => ({
        inputs: match[1]!,
        got: match[2]!,
        expected: match[3]!,
      }),
    ),
  };
}

type Weights = Record<DefectKind, number>;

/** What one kind of failure points at (kinds not named: no evidence either way, 1). */
const profiles: { applies: (report: TestReport, errors: string) => boolean; weights: Partial<Weights> }[] = [
  {
    // Never returns: a stopping condition, a state the loop never updates, a part that never shrinks.
    applies: (report) => report.timeouts > 0 || report.recursion,
    weights: {
      "base-case": 3,
      "missing-line": 2,
      expression: 2,
      slice: 2,
      swap: 1.5,
      "off-by-one": 1.5,
      comparison: 1.5,
    },
  },
  {
    applies: (_, errors) => /IndexError/.test(errors),
    weights: { "off-by-one": 3, comparison: 2.5, "base-case": 2 },
  },
  { applies: (_, errors) => /KeyError/.test(errors), weights: { "off-by-one": 2, variable: 2 } },
  {
    applies: (_, errors) => /NoneType|ValueError|ZeroDivisionError|unpack|empty/.test(errors),
    weights: { "base-case": 3 },
  },
  {
    applies: (_, errors) => /TypeError|AttributeError/.test(errors) && !/NoneType/.test(errors),
    weights: { call: 2.5, variable: 1.5, field: 1.5, constant: 1.5 },
  },
  { applies: (_, errors) => /changed size during iteration/.test(errors), weights: { call: 3 } },
  {
    // A wrong value: any kind that changes a value, the structural ones a little less.
    applies: (report) => report.wrong.length > 0,
    weights: {
      ...Object.fromEntries(defectKinds.map((kind) => [kind, 2])),
      "off-by-one": 1.5,
      arithmetic: 1.5,
      call: 1.5,
      "base-case": 1.5,
    },
  },
  {
    // A fraction where a whole number was expected, or the reverse: a division of the wrong kind.
    applies: (report) =>
      report.wrong.some(
        (entry) =>
          /^-?\d+$/.test(entry.expected) !== /^-?\d+$/.test(entry.got) &&
          /^-?\d+(?:\.\d+)?(?:e-?\d+)?$/.test(entry.got),
      ),
    weights: { arithmetic: 3 },
  },
  {
    // A generator or a function came back where a value was expected: a call too many.
    applies: (report) =>
      report.wrong.some((entry) => /<(?:generator|map|filter|function) object/.test(entry.got)),
    weights: { call: 3 },
  },
];

/** How much each kind of defect is to be suspected given the failures (1: no evidence either way). */
export function kindWeights(report: TestReport): Weights {
  const errors = report.exceptions.join("\n");
  const weights = Object.fromEntries(defectKinds.map((kind) => [kind, 1])) as Weights;
  for (const profile of profiles)
    if (profile.applies(report, errors))
      for (const [kind, value] of Object.entries(profile.weights) as [DefectKind, number][])
        weights[kind] = Math.max(weights[kind], value);
  return weights;
}
