import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect data structure constants and initial values (SIMULATED agent's knowledge): an empty result where a
 * result holding one empty item belongs (`[]` / `[[]]`), a 0 for a 1, True for False, as a returned constant or a
 * starting value. Smell: a recursive function that builds its result from the items of its own recursive result,
 * while its base case returns an empty collection (nothing can ever be built on nothing).
 */

const swaps: Record<string, readonly string[]> = {
  "[]": ["[[]]"],
  "[[]]": ["[]"],
  "0": ["1"],
  "1": ["0"],
  "-1": ["0"],
  True: ["False"],
  False: ["True"],
};

/** Functions that iterate over their own recursive result. */
function buildsOnItself(facts: ProgramFacts): Set<string> {
  const out = new Set<string>();
  for (const fn of facts.functions) {
    const body = facts.code
      .slice(fn.header + 1, fn.end)
      .map(codeOf)
      .join("\n");
    if (
      new RegExp(
        `\\bin\\s+${escapeRegExp(fn.name)}\\(|for \\w+ in (\\w+)[\\s\\S]*\\1\\s*=\\s*${escapeRegExp(fn.name)}\\(`,
      ).test(body) ||
      new RegExp(`(\\w+)\\s*=\\s*${escapeRegExp(fn.name)}\\([\\s\\S]*\\bin\\s+\\1\\b`).test(body)
    )
      out.add(fn.name);
  }
  return out;
}

export function constantEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const builders = buildsOnItself(facts);
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    const returned = /^(\s*)return\s+(\[\]|\[\[\]\]|-?[01]|True|False)\s*$/.exec(code);
    const initial = /^(\s*)(\w+)\s*=\s*(\[\]|-?[01]|True|False)\s*$/.exec(code);
    if (returned) {
      const fn = facts.functions.filter((f) => line > f.header && line < f.end).at(-1);
      const empty = returned[2] === "[]" && fn !== undefined && builders.has(fn.name);
      for (const by of swaps[returned[2]!] ?? [])
        out.push(change("constant", "result", line, `${returned[1]}return ${by}`, empty ? 0.9 : 0.25));
    } else if (initial && !facts.continuation.has(line)) {
      for (const by of swaps[initial[3]!] ?? [])
        if (by !== "[[]]")
          out.push(change("constant", "initial", line, `${initial[1]}${initial[2]} = ${by}`, 0.2));
    }
  });
  return out;
}
