import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect field dereferences (SIMULATED agent's knowledge): `x.f` where another field of the program's objects
 * belongs (`incoming` for `outgoing`, `start` for `end`). The fields are those the program reads (not its method
 * calls). Smell: a field combined with itself (`b.end - b.end`, `x.f == x.f`): one side must be another field.
 */

export function fieldEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const reads: { line: number; at: number; field: string; selfCombined: boolean }[] = [];
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw).replace(/'[^']*'|"[^"]*"/g, (text) => "_".repeat(text.length));
    if (/^\s*(?:import|from)\b/.test(code)) return;
    for (const match of code.matchAll(/(?<=[\w\])])\.([A-Za-z_]\w*)\b(?!\s*\()/g)) {
      const at = match.index + 1;
      const end = at + match[1]!.length;
      const operand = /[\w.]+(?:\[[^\]]*\])?$/.exec(code.slice(0, end))?.[0] ?? "";
      const before = code.slice(0, end - operand.length);
      const selfCombined =
        operand !== "" &&
        new RegExp(`${escapeRegExp(operand)}\\s*(?:[-+*/%]|==|!=|<=?|>=?)\\s*$`).test(before);
      reads.push({ line, at, field: match[1]!, selfCombined });
    }
  });
  const fields = [...new Set(reads.map((read) => read.field))];
  for (const read of reads) {
    const raw = facts.code[read.line]!;
    for (const other of fields) {
      if (other === read.field) continue;
      const after = spliced(raw, read.at, read.at + read.field.length, other);
      out.push(change("field", "name", read.line, after, read.selfCombined ? 0.85 : 0.35));
    }
  }
  return out;
}
