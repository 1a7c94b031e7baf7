import { baseCaseTests, type ProgramFacts } from "./program-facts.js";
import { argumentsAt, codeOf, escapeRegExp } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Swapped variables (SIMULATED agent's knowledge): two neighbouring arguments of a call or indices of a subscript
 * exchanged, the operands of a non-commutative operator exchanged (`a - b`, a prepend `x + s`). Smells: values
 * popped off a stack passed on in the order they were popped (the first one popped was pushed last), and a
 * recursive call that passes on, in its own place, the parameter its base case tests (the recursion cannot reach it).
 */

/** `a = s.pop()` then `b = s.pop()`: the popped names in order. */
function poppedInOrder(facts: ProgramFacts): string[][] {
  const out: string[][] = [];
  for (let line = 0; line + 1 < facts.code.length; line++) {
    const first = /^\s*(\w+)\s*=\s*(\w+)\.pop\(\)\s*$/.exec(codeOf(facts.code[line]!));
    const second = /^\s*(\w+)\s*=\s*(\w+)\.pop\(\)\s*$/.exec(codeOf(facts.code[line + 1]!));
    if (first && second && first[2] === second[2]) out.push([first[1]!, second[1]!]);
  }
  return out;
}

/** Argument positions of recursive calls that pass on, unchanged and in its own place, a parameter a base case tests. */
function stalledArguments(facts: ProgramFacts): Set<string> {
  const out = new Set<string>();
  for (const call of facts.recursiveCalls) {
    const fn = facts.functions.find((f) => f.name === call.callee);
    if (!fn) continue;
    const tested = baseCaseTests(facts, fn);
    call.args.forEach((arg, index) => {
      if (tested.has(arg) && fn.params[index] === arg) out.add(`${call.line}:${call.open}:${index}`);
    });
  }
  return out;
}

export function swapEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const popped = poppedInOrder(facts);
  const stalled = stalledArguments(facts);
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    if (/^\s*(?:def|import|from)\b/.test(code)) return;
    for (let open = 0; open < code.length; open++) {
      if (code[open] !== "(" && code[open] !== "[") continue;
      const args = argumentsAt(raw, open);
      if (!args || args.parts.length < 2) continue;
      const parts = args.parts.map((part) => part.trim());
      for (let a = 0; a + 1 < parts.length; a++) {
        const swapped = [...parts];
        [swapped[a], swapped[a + 1]] = [parts[a + 1]!, parts[a]!];
        const popOrder = popped.some(([first, second]) => parts[a] === first && parts[a + 1] === second);
        const stall = stalled.has(`${line}:${open}:${a}`) || stalled.has(`${line}:${open}:${a + 1}`);
        // A builtin's arguments (`range`, `min`, `isinstance`) are rarely the ones swapped.
        const builtin =
          code[open] === "(" &&
          /\b(?:range|min|max|isinstance|len|sorted|enumerate|zip|print)\s*$/.test(code.slice(0, open));
        const suspicion = popOrder ? 0.8 : stall ? 0.6 : builtin ? 0.1 : 0.3;
        out.push(
          change(
            "swap",
            "arguments",
            line,
            `${raw.slice(0, args.start)}${swapped.join(", ")}${raw.slice(args.end)}`,
            suspicion,
          ),
        );
      }
    }
    // Operands of `-`, `/`, `%`, `//` and `+` (a prepend): simple operands only.
    const simple = "[\\w.]+(?:\\[[^\\]]*\\])?(?:\\([^()]*\\))?";
    for (const match of code.matchAll(new RegExp(`(${simple})(\\s*)(\\/\\/|[-+/%])(\\s*)(${simple})`, "g"))) {
      const [, left, s1, op, s2, right] = match;
      if (/^\d+$/.test(right!) && op === "-") continue;
      if (left === right) continue;
      const swapped = `${right}${s1}${op}${s2}${left}`;
      out.push(
        change(
          "swap",
          op === "+" ? "prepend" : "operands",
          line,
          raw.replace(new RegExp(escapeRegExp(match[0])), swapped),
          0.2,
        ),
      );
    }
  });
  return out;
}
