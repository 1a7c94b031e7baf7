import { arithmeticEdits } from "./arithmetic-edits.js";
import { baseCaseEdits } from "./base-case-edits.js";
import { callEdits } from "./call-edits.js";
import { comparisonEdits } from "./comparison-edits.js";
import { constantEdits } from "./constant-edits.js";
import { expressionEdits } from "./expression-edits.js";
import { fieldEdits } from "./field-edits.js";
import { missingLineEdits } from "./missing-line-edits.js";
import { offByOneEdits } from "./off-by-one-edits.js";
import { type ProgramFacts, programFacts } from "./program-facts.js";
import type { RepairCandidate, RepairEdit } from "./repair-edit.js";
import { returnEdits } from "./return-edits.js";
import { sliceEdits } from "./slice-edits.js";
import { swapEdits } from "./swap-edits.js";
import { variableEdits } from "./variable-edits.js";

/**
 * Every edit the simulated repair agent can think of for a program (SIMULATED): one finder per kind of defect, each
 * reading the program's text alone. It never sees a corrected program; on a program it has never seen it finds the
 * same kinds of edits, and where the fix is of a kind it does not know, the fix is simply not among them.
 */
const finders: readonly ((facts: ProgramFacts) => RepairEdit[])[] = [
  comparisonEdits,
  offByOneEdits,
  arithmeticEdits,
  swapEdits,
  variableEdits,
  baseCaseEdits,
  constantEdits,
  fieldEdits,
  returnEdits,
  callEdits,
  sliceEdits,
  expressionEdits,
  missingLineEdits,
];

const cache = new Map<string, RepairCandidate[]>();

/** The candidate edits of `source` (whose task names the function `entry`), each file once, most suspicious first. */
export function repairCandidates(source: string, entry: string): RepairCandidate[] {
  const key = `${entry}\u0000${source}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const found = findCandidates(source, entry);
  if (cache.size > 200) cache.clear();
  cache.set(key, found);
  return found;
}

function findCandidates(source: string, entry: string): RepairCandidate[] {
  const facts = programFacts(source, entry);
  const byFile = new Map<string, RepairCandidate>();
  for (const find of finders) {
    for (const edit of find(facts)) {
      const before = facts.code[edit.line]!;
      if (edit.replace.length === 1 && edit.replace[0] === before) continue;
      const lines = [...facts.lines];
      lines.splice(edit.line, 1, ...edit.replace);
      const file = lines.join("\n");
      const known = byFile.get(file);
      if (!known || known.suspicion < edit.suspicion) byFile.set(file, { ...edit, before, file });
    }
  }
  return [...byFile.values()].sort((a, b) => b.suspicion - a.suspicion || a.line - b.line);
}
