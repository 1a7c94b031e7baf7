import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, identifiersIn, reserved, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Off-by-one defects (SIMULATED agent's knowledge): a `+ 1` / `- 1` removed, one added to or subtracted from an
 * index, a bound, or a loop variable's next value. Smells: a subscript of several indices where one is offset and
 * another is not (`dp[i - 1, j]`), and a bound of a `while` loop that is set to another name unchanged
 * (`lo = mid`: the loop may never shrink).
 */

export function offByOneEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    if (/^\s*(?:def|import|from)\b/.test(code) || code.trim() === "") return;
    for (const match of code.matchAll(/\b1 \+ |\s[+-] 1\b/g))
      out.push(
        change(
          "off-by-one",
          "remove",
          line,
          spliced(raw, match.index, match.index + match[0].length, ""),
          0.35,
        ),
      );
    // Subscripts (a bracket right after a name or a closing bracket, not a list) and ranges.
    for (const match of code.matchAll(
      /(?<=[\w\])]\s*)\[([^\][]+)\]|range\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g,
    )) {
      const inner = match[1] ?? match[2]!;
      const innerStart =
        match[1] !== undefined ? match.index + 1 : match.index + match[0].length - 1 - inner.length;
      const indices = inner.split(",");
      const offset = indices.find((part) => /[+-]\s*1\b/.test(part))?.match(/[+-]\s*1\b/)?.[0];
      for (const { name, at } of identifiersIn(inner)) {
        // Not a function's name, nor the argument of one (`len(perm)`: its length is offset, not perm).
        if (
          reserved.has(name) ||
          /\w\($/.test(inner.slice(0, at)) ||
          /^\s*\(/.test(inner.slice(at + name.length))
        )
          continue;
        const end = innerStart + at + name.length;
        if (/^\s*[+-]\s*1\b/.test(raw.slice(end))) continue;
        // The index this name stands in: bare (`j`) beside an offset one (`i - 1`)?
        const part = indices.find((text, k) => {
          const from = indices.slice(0, k).join(",").length + (k > 0 ? 1 : 0);
          return at >= from && at < from + text.length;
        });
        const bareBesideOffset =
          match[1] !== undefined && indices.length > 1 && offset !== undefined && part?.trim() === name;
        const sub = bareBesideOffset && offset.startsWith("-") ? 0.8 : 0.2;
        const add = bareBesideOffset && offset.startsWith("+") ? 0.8 : 0.2;
        out.push(change("off-by-one", "subtract", line, `${raw.slice(0, end)} - 1${raw.slice(end)}`, sub));
        out.push(change("off-by-one", "add", line, `${raw.slice(0, end)} + 1${raw.slice(end)}`, add));
      }
    }
    // `lo = mid` inside a while loop whose condition tests lo: the next value one further.
    const assign = /^(\s*)(\w+)\s*=\s*(\w+)\s*$/.exec(code);
    const loop = facts.loops.find((l) => l.kind === "while" && line > l.header && line < l.end);
    if (
      assign &&
      loop &&
      new RegExp(`\\b${escapeRegExp(assign[2]!)}\\b`).test(loop.head) &&
      !reserved.has(assign[3]!)
    ) {
      out.push(change("off-by-one", "add", line, `${raw.trimEnd()} + 1`, 0.35));
      out.push(change("off-by-one", "subtract", line, `${raw.trimEnd()} - 1`, 0.35));
    }
  });
  return out;
}
