import { baseCaseTests, isCollection, isSequence, type ProgramFacts } from "./program-facts.js";
import { blockEnd, codeOf, escapeRegExp } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Missing or wrong base cases and conditions (SIMULATED agent's knowledge): a guard for None before a field is
 * read, a guard for an empty sequence in a case that returns, a length bound that stops one step earlier, an endless
 * `while True` given a condition. Smells: a name advanced two fields at a time (`x = x.next.next`) whose field is
 * tested but not the name itself; a parameter a recursive call shrinks (passes on a part of it) that no base case
 * tests; a loop that takes items off a collection without asking whether any are left.
 */

/** Sequence parameters some recursive call passes on changed while no base case of the function tests them. */
function untestedShrinking(facts: ProgramFacts): Set<string> {
  const out = new Set<string>();
  for (const call of facts.recursiveCalls) {
    const fn = facts.functions.find((f) => f.name === call.callee);
    if (!fn) continue;
    const tested = baseCaseTests(facts, fn);
    fn.params.forEach((param, index) => {
      const arg = call.args[index];
      if (arg && arg !== param && !tested.has(param) && isSequence(facts, param)) out.add(param);
    });
  }
  return out;
}

/** Sequences read without a test for emptiness first (`first, *rest = coins`, `arr[0]`). */
function readUnguarded(facts: ProgramFacts, name: string): boolean {
  return facts.code.some((line) =>
    new RegExp(`^\\s*[\\w, *]+=\\s*${escapeRegExp(name)}\\s*$|\\b${escapeRegExp(name)}\\[0\\]`).test(
      codeOf(line),
    ),
  );
}

export function baseCaseEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const shrinking = untestedShrinking(facts);
  const sequences = facts.names.filter((name) => isCollection(facts, name));
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw);
    // A field tested for None on a name that may itself be None.
    const field = /^(\s*)(if|elif|while)\s+([\w.]+)\.(\w+) is None\s*:/.exec(code);
    if (field) {
      const name = field[3]!;
      const leaps = facts.code.some((l) =>
        new RegExp(`^\\s*${escapeRegExp(name)}\\s*=\\s*${escapeRegExp(name)}(\\.\\w+){2,}`).test(codeOf(l)),
      );
      out.push(
        change(
          "base-case",
          "guard",
          line,
          raw.replace(`${name}.${field[4]} is None`, `${name} is None or ${name}.${field[4]} is None`),
          leaps ? 0.85 : 0.5,
        ),
      );
    }
    // A case that returns: also take it when a sequence is empty.
    const test = /^(\s*)(if|elif)\s+(.+):\s*$/.exec(code);
    if (test && /\breturn\b/.test(facts.code.slice(line + 1, blockEnd(facts.code, line)).join("\n"))) {
      for (const name of sequences) {
        if (new RegExp(`\\b${escapeRegExp(name)}\\b`).test(test[3]!) && !shrinking.has(name)) continue;
        const suspicion = shrinking.has(name) ? 0.8 : readUnguarded(facts, name) ? 0.5 : 0.15;
        out.push(
          change("base-case", "guard", line, `${test[1]}${test[2]} ${test[3]} or not ${name}:`, suspicion),
        );
      }
      for (const match of test[3]!.matchAll(/(len\(\w+\)|\b\w+) == ([01])\b/g)) {
        const bound = match[1]!.startsWith("len(") && match[2] === "0" ? "<= 1" : `<= ${match[2]}`;
        const at = code.indexOf(match[0]);
        out.push(
          change(
            "base-case",
            "bound",
            line,
            `${raw.slice(0, at)}${match[1]} ${bound}${raw.slice(at + match[0].length)}`,
            match[1]!.startsWith("len(") ? 0.5 : 0.3,
          ),
        );
      }
    }
    // `while True:` given a condition: a collection the loop takes items from.
    const endless = /^(\s*)while True\s*:/.exec(code);
    if (endless) {
      const body = facts.code
        .slice(line + 1, blockEnd(facts.code, line))
        .map(codeOf)
        .join("\n");
      for (const name of sequences) {
        const consumed = new RegExp(`\\b${escapeRegExp(name)}\\.(pop|popleft)\\(`).test(body);
        out.push(change("base-case", "loop", line, `${endless[1]}while ${name}:`, consumed ? 0.85 : 0.2));
      }
    }
  });
  return out;
}
