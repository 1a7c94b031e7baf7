import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, indentOf } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Wrong return values (SIMULATED agent's knowledge): a function that keeps count of something through a loop and
 * then answers a constant at the end (`return True` after tracking `depth`) ignores what it counted: the answer is
 * whether the count came back to where it started.
 */

export function returnEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  for (const fn of facts.functions) {
    const body = facts.code.slice(fn.header + 1, fn.end);
    const last = body
      .map((line, k) => ({ line: fn.header + 1 + k, code: codeOf(line) }))
      .filter((l) => l.code.trim() !== "")
      .at(-1);
    const constant = last ? /^(\s*)return (True|False)\s*$/.exec(last.code) : null;
    if (
      !last ||
      !constant ||
      indentOf(last.code) !== indentOf(codeOf(body.find((l) => codeOf(l).trim() !== "") ?? ""))
    )
      continue;
    for (let line = fn.header + 1; line < last.line; line++) {
      const start = /^\s*(\w+)\s*=\s*(-?\d+)\s*$/.exec(codeOf(facts.code[line]!));
      if (!start) continue;
      const counter = escapeRegExp(start[1]!);
      const counted = facts.loops.some(
        (loop) =>
          loop.header > line &&
          facts.code
            .slice(loop.header + 1, loop.end)
            .some((l) => new RegExp(`^\\s*${counter}\\s*[-+]=`).test(codeOf(l))),
      );
      if (counted)
        out.push(
          change("return", "state", last.line, `${constant[1]}return ${start[1]} == ${start[2]}`, 0.8),
        );
    }
  }
  return out;
}
