/**
 * One edit the simulated repair agent may try (SIMULATED), named by the KIND of defect it would repair. The kinds
 * follow the defect classes of the QuixBugs paper (Lin et al., 2017) as a repair tool's author knows them:
 *
 * | kind | the paper's classes |
 * |---|---|
 * | `comparison` | incorrect comparison operator (strictness, direction, `==` / `!=`) |
 * | `off-by-one` | missing / added +1 (an index, a bound, a step) |
 * | `arithmetic` | incorrect arithmetic or assignment operator (`+` / `-`, `/` / `//`, `^=` / `&=`) |
 * | `swap` | variable swap, swapped arguments or operands, variable prepend (`a + b` / `b + a`) |
 * | `variable` | incorrect variable (a name, a computed value, an assignment's target) |
 * | `base-case` | missing condition, a wrong or missing base case, a loop that cannot end |
 * | `constant` | incorrect data structure constant, a wrong initial value |
 * | `field` | incorrect field dereference |
 * | `return` | a wrong return value |
 * | `call` | incorrect method called, a missing or extra function call |
 * | `slice` | incorrect array slice (a missing one, or the wrong part) |
 * | `expression` | missing arithmetic expression (a term, a power, a kept part) |
 * | `missing-line` | missing line (a statement that updates state) |
 *
 * An edit replaces one line of the program's code by `replace` (one line: a change; more: lines inserted there).
 */

export type DefectKind =
  | "comparison"
  | "off-by-one"
  | "arithmetic"
  | "swap"
  | "variable"
  | "base-case"
  | "constant"
  | "field"
  | "return"
  | "call"
  | "slice"
  | "expression"
  | "missing-line";

export const defectKinds: readonly DefectKind[] = [
  "comparison",
  "off-by-one",
  "arithmetic",
  "swap",
  "variable",
  "base-case",
  "constant",
  "field",
  "return",
  "call",
  "slice",
  "expression",
  "missing-line",
];

export interface RepairEdit {
  kind: DefectKind;
  /** How the edit was made, for the policy's own choices (`strict` / `flip`, `add` / `remove` / `subtract`, …). */
  style: string;
  /** 0-based line of the code the edit replaces. */
  line: number;
  /** What replaces that line: one line, or several when lines are inserted. */
  replace: string[];
  /**
   * 0..1: how strongly the code itself points at this edit (a smell of its kind: a set that is checked but never
   * filled, a recursive call that passes on the parameter its base case tests, `x - x`), before any test ran.
   */
  suspicion: number;
  /** Whether the edit adds code that was missing (a statement, a term, a slice) rather than changing a token. */
  adds: boolean;
}

export interface RepairCandidate extends RepairEdit {
  /** The line as it was. */
  before: string;
  /** The whole program with the edit. */
  file: string;
}

/** An edit of `kind` replacing line `line` by one line. */
export function change(
  kind: DefectKind,
  style: string,
  line: number,
  after: string,
  suspicion: number,
  adds = false,
): RepairEdit {
  return { kind, style, line, replace: [after], suspicion, adds };
}
