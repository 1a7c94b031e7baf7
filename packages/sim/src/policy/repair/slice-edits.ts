import { baseCaseTests, isSequence, type ProgramFacts } from "./program-facts.js";
import { codeOf, escapeRegExp, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect or missing slices (SIMULATED agent's knowledge): a loop over a whole sequence whose first part was
 * already taken (`heap = arr[:k]`, then `for x in arr`: the rest, `arr[k:]`), a recursive call that passes a
 * sequence on whole where it should pass its rest (`b` for `b[1:]`). Smells: the part taken before the loop; a
 * branch that compared the heads of two sequences and then advances only one of them; a recursive call that passes
 * on, unchanged, a sequence its base case tests.
 */

export function sliceEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  const code = facts.code.map(codeOf);
  // The rest of a sequence whose first part was taken before the loop.
  for (const loop of facts.loops) {
    if (loop.kind !== "for" || !/^\w+$/.test(loop.head)) continue;
    const name = escapeRegExp(loop.head);
    const raw = facts.code[loop.header]!;
    const at = raw.lastIndexOf(loop.head);
    for (const line of code.slice(0, loop.header)) {
      const head = new RegExp(`\\b${name}\\[:\\s*([^\\]]+)\\]`).exec(line);
      const tail = new RegExp(`\\b${name}\\[([^\\]:]+):\\s*\\]`).exec(line);
      if (head)
        out.push(
          change(
            "slice",
            "rest",
            loop.header,
            spliced(raw, at, at + loop.head.length, `${loop.head}[${head[1]!.trim()}:]`),
            0.85,
            true,
          ),
        );
      if (tail)
        out.push(
          change(
            "slice",
            "rest",
            loop.header,
            spliced(raw, at, at + loop.head.length, `${loop.head}[:${tail[1]!.trim()}]`),
            0.5,
            true,
          ),
        );
    }
  }
  // Recursive calls that pass a sequence on whole.
  const seen = new Set<string>();
  for (const call of facts.recursiveCalls) {
    const fn = facts.functions.find((f) => f.name === call.callee);
    if (!fn) continue;
    const tested = baseCaseTests(facts, fn);
    const advanced = call.args.filter((arg) => /^\w+\[1:\]$/.test(arg)).map((arg) => arg.slice(0, -4));
    const branch = branchTest(code, call.line);
    call.args.forEach((arg, index) => {
      if (!/^\w+$/.test(arg) || !fn.params.includes(arg) || !isSequence(facts, arg)) return;
      const headsCompared =
        advanced.length > 0 &&
        new RegExp(`\\b${escapeRegExp(arg)}\\[0\\]`).test(branch) &&
        advanced.some((other) => new RegExp(`\\b${escapeRegExp(other)}\\[0\\]`).test(branch));
      const stalled = tested.has(arg) && fn.params[index] === arg;
      if (advanced.length === 0 && !stalled) return;
      const raw = facts.code[call.line]!;
      const args = call.open;
      const where = new RegExp(`(?<=[(,]\\s*)${escapeRegExp(arg)}(?=\\s*[,)])`, "g");
      const hits = [...raw.slice(args).matchAll(where)];
      const hit = hits[0];
      if (!hit) return;
      const at = args + hit.index;
      const key = `${call.line}:${at}`;
      if (seen.has(key)) return;
      seen.add(key);
      const suspicion = headsCompared ? 0.8 : stalled ? 0.5 : 0.3;
      out.push(
        change(
          "slice",
          "advance",
          call.line,
          spliced(raw, at, at + arg.length, `${arg}[1:]`),
          suspicion,
          true,
        ),
      );
    });
  }
  return out;
}

/** The condition of the nearest `if` / `elif` above `line` that is less indented (the branch the line is in). */
function branchTest(code: readonly string[], line: number): string {
  const indent = /^\s*/.exec(code[line]!)![0].length;
  for (let k = line - 1; k >= 0; k--) {
    const test = /^(\s*)(?:if|elif)\s+(.+):\s*$/.exec(code[k]!);
    if (code[k]!.trim() !== "" && /^\s*/.exec(code[k]!)![0].length < indent) return test ? test[2]! : "";
  }
  return "";
}
