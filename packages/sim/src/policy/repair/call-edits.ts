import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, indentOf, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect, missing or extra function calls (SIMULATED agent's knowledge): the other one of a pair (`min` / `max`,
 * `any` / `all`, `append` / `extend`, `pop()` / `pop(0)`), a collection changed in place where it should be rebound
 * (`x.update(y)` / `x = y`), a loop over a collection it changes (iterate over a copy), a recursive call on a value
 * that needs none (`yield f(x)` / `yield x`), a call the value lacks (`len(x)`, `abs(x)`). Smell: a recursive call on
 * the very value a type test just sent away from the recursion (`if isinstance(x, list): … else: yield f(x)`).
 */

const pairs: [RegExp, string, number][] = [
  [/\bmin\(/g, "max(", 0.25],
  [/\bmax\(/g, "min(", 0.25],
  [/\bany\(/g, "all(", 0.25],
  [/\ball\(/g, "any(", 0.25],
  [/\.append\(/g, ".extend(", 0.2],
  [/\.extend\(/g, ".append(", 0.2],
  [/\.pop\(\)/g, ".pop(0)", 0.2],
  [/\.popleft\(\)/g, ".pop()", 0.2],
];

/** The header of the `if` whose `else` holds `line` at the given indentation (null when none). */
function elseTest(facts: ProgramFacts, line: number): string | null {
  const indent = indentOf(facts.code[line]!);
  for (let k = line - 1; k >= 0; k--) {
    const code = codeOf(facts.code[k]!);
    if (code.trim() === "" || indentOf(code) >= indent) continue;
    if (!/^\s*else\s*:/.test(code)) return null;
    for (let h = k - 1; h >= 0; h--) {
      const header = codeOf(facts.code[h]!);
      if (header.trim() !== "" && indentOf(header) === indentOf(code) && /^\s*if\b/.test(header))
        return header;
    }
    return null;
  }
  return null;
}

export function callEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const own = new Set(facts.functions.map((fn) => fn.name));
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    if (/^\s*(?:def|import|from)\b/.test(code)) return;
    for (const [pattern, by, suspicion] of pairs)
      for (const match of code.matchAll(pattern))
        out.push(
          change(
            "call",
            "other",
            line,
            spliced(raw, match.index, match.index + match[0].length, by),
            suspicion,
          ),
        );
    // A recursive call on a plain value, yielded or returned: the value itself.
    const unwrap = /^(\s*)(yield|return)\s+(\w+)\((\w+)\)\s*$/.exec(code);
    if (unwrap && own.has(unwrap[3]!)) {
      const test = elseTest(facts, line);
      const sentAway = test !== null && new RegExp(`isinstance\\(${escapeRegExp(unwrap[4]!)}\\b`).test(test);
      out.push(
        change("call", "unwrap", line, `${unwrap[1]}${unwrap[2]} ${unwrap[4]}`, sentAway ? 0.85 : 0.4),
      );
    }
    // Changed in place, where rebinding was meant.
    const inPlace = /^(\s*)([\w.]+(?:\[[^\]]*\])?)\.(update|extend)\((.+)\)\s*$/.exec(code);
    if (inPlace) out.push(change("call", "rebind", line, `${inPlace[1]}${inPlace[2]} = ${inPlace[4]}`, 0.3));
    // A loop over a collection the loop body changes: over a copy.
    const loop = /^(\s*for\s+.+?\s+in\s+)(.+?)(\s*:\s*)$/.exec(code);
    if (loop && !/^(?:list|sorted|range|enumerate|reversed)\(/.test(loop[2]!))
      out.push(change("call", "copy", line, `${loop[1]}list(${loop[2]})${loop[3]}`, 0.2));
    // A call the value lacks: a name next to arithmetic or a comparison.
    for (const match of code.matchAll(
      /(?<=[-+*/<>]=?\s*)\b([a-z_]\w*)\b(?=\s*(?:[-+*/<>)]|$))|\b([a-z_]\w*)\b(?=\s*[-+*/<>]=?\s*\w)/g,
    )) {
      const name = match[1] ?? match[2]!;
      if (!facts.names.includes(name) || /\w\(\s*$/.test(code.slice(0, match.index))) continue;
      for (const fn of ["len", "abs"])
        out.push(
          change(
            "call",
            "wrap",
            line,
            spliced(raw, match.index, match.index + name.length, `${fn}(${name})`),
            0.1,
          ),
        );
    }
  });
  return out;
}
