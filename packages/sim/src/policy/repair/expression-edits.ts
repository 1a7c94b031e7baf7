import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, identifiersIn, reserved, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Missing arithmetic expressions (SIMULATED agent's knowledge): a term an expression lacks. A result built only
 * from the transformed items of a recursive result, which drops the items themselves (`[[x] + s for s in rest]` for
 * `rest + [[x] + s for s in rest]`); a loop condition that compares a quantity the loop refines with the target in
 * the wrong measure (`abs(x - approx)` where the square of `approx` is what approaches `x`).
 */

export function expressionEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    // A comprehension over a name, returned: keep the name's items too.
    const comprehension = /^(\s*return\s+)(\[.+\bfor\s+\w+\s+in\s+(\w+)\s*\])\s*$/.exec(code);
    if (comprehension) {
      const source = escapeRegExp(comprehension[3]!);
      const recursive = facts.functions.some((fn) =>
        facts.code.some((l) =>
          new RegExp(`^\\s*${source}\\s*=\\s*${escapeRegExp(fn.name)}\\(`).test(codeOf(l)),
        ),
      );
      out.push(
        change(
          "expression",
          "keep",
          line,
          `${comprehension[1]}${comprehension[3]} + ${comprehension[2]}`,
          recursive ? 0.6 : 0.25,
          true,
        ),
      );
    }
    // A loop condition's arithmetic: a name the loop refines, squared.
    const loop = facts.loops.find((l) => l.kind === "while" && l.header === line);
    if (loop && /[-+*/]/.test(loop.head)) {
      const body = facts.code.slice(line + 1, loop.end).map(codeOf);
      for (const { name, at } of identifiersIn(code)) {
        if (reserved.has(name) || !facts.names.includes(name)) continue;
        if (
          !/[-+*/]\s*$|^\s*[-+*/]/.test(`${code.slice(0, at).slice(-3)}`) &&
          !/^\s*[-+*/]/.test(code.slice(at + name.length))
        )
          continue;
        if (/^\s*\*\*/.test(code.slice(at + name.length))) continue;
        const refined = body.some((l) => new RegExp(`^\\s*${escapeRegExp(name)}\\s*[-+*/]?=`).test(l));
        out.push(
          change(
            "expression",
            "power",
            line,
            spliced(raw, at, at + name.length, `${name} ** 2`),
            refined ? 0.5 : 0.2,
            true,
          ),
        );
      }
    }
  });
  return out;
}
