import type { ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect comparison operators (SIMULATED agent's knowledge): a comparison made strict or non-strict, reversed,
 * its operands swapped, `==` / `!=` negated. Smells that raise the suspicion: two comparisons of the same operands
 * that together leave the equal case out (`x < p` and `x > p`), and a loop bound that runs to an exclusive end
 * (`hi = len(arr)` then `while lo <= hi`).
 */

const strictSwap: Record<string, string> = { "<": "<=", "<=": "<", ">": ">=", ">=": ">" };
const flipSwap: Record<string, string> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };
const operand = /([\w.]+(?:\[[^\]]*\])?(?:\([^()]*\))?)/;

interface Comparison {
  line: number;
  at: number;
  op: string;
  left: string | null;
  right: string | null;
}

function comparisonsOf(facts: ProgramFacts): Comparison[] {
  const out: Comparison[] = [];
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    if (/^\s*(?:def|import|from)\b/.test(code)) return;
    for (const match of code.matchAll(/(?<![<>=!])(<=|>=|==|!=|<|>)(?![<>=])/g)) {
      const left = new RegExp(`${operand.source}\\s*$`).exec(code.slice(0, match.index))?.[1] ?? null;
      const right =
        new RegExp(`^\\s*${operand.source}`).exec(code.slice(match.index + match[1]!.length))?.[1] ?? null;
      out.push({ line, at: match.index, op: match[1]!, left, right });
    }
  });
  return out;
}

/** Comparisons of the same two operands, both strict, in opposite directions: together they skip equality. */
function leavesEqualOut(all: readonly Comparison[], one: Comparison): boolean {
  if (one.op !== "<" && one.op !== ">") return false;
  return all.some(
    (other) =>
      other !== one &&
      (other.op === "<" || other.op === ">") &&
      ((other.left === one.left && other.right === one.right && other.op !== one.op) ||
        (other.left === one.right && other.right === one.left && other.op === one.op)),
  );
}

/** `lo <= hi` in a loop condition where one side was set to a length (an exclusive end). */
function runsPastEnd(facts: ProgramFacts, one: Comparison): boolean {
  if (one.op !== "<=" && one.op !== ">=") return false;
  if (!facts.loops.some((loop) => loop.kind === "while" && loop.header === one.line)) return false;
  return [one.left, one.right].some(
    (side) =>
      side !== null &&
      facts.code.some((line) => new RegExp(`^\\s*${escapeRegExp(side)}\\s*=\\s*len\\(`).test(line)),
  );
}

export function comparisonEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const all = comparisonsOf(facts);
  for (const one of all) {
    const line = facts.code[one.line]!;
    const replaceOp = (by: string) => spliced(line, one.at, one.at + one.op.length, by);
    if (strictSwap[one.op]) {
      const smell = leavesEqualOut(all, one) || runsPastEnd(facts, one);
      out.push(change("comparison", "strict", one.line, replaceOp(strictSwap[one.op]!), smell ? 0.8 : 0.3));
      out.push(change("comparison", "flip", one.line, replaceOp(flipSwap[one.op]!), 0.2));
    } else {
      out.push(change("comparison", "negate", one.line, replaceOp(one.op === "==" ? "!=" : "=="), 0.1));
    }
    if (one.left && one.right && one.left !== one.right) {
      const start =
        one.at - (line.slice(0, one.at).length - line.slice(0, one.at).trimEnd().length) - one.left.length;
      const rightStart = line.indexOf(one.right, one.at + one.op.length);
      if (start >= 0 && line.slice(start, start + one.left.length) === one.left && rightStart > 0) {
        const swapped = `${line.slice(0, start)}${one.right} ${one.op} ${one.left}${line.slice(rightStart + one.right.length)}`;
        out.push(change("swap", "operands", one.line, swapped, 0.25));
      }
    }
  }
  return out;
}
