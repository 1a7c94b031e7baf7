import type { ProgramFacts } from "./program-facts.js";
import { codeOf, spliced } from "./python-text.js";
import { change, type RepairEdit } from "./repair-edit.js";

/**
 * Incorrect arithmetic or assignment operators (SIMULATED agent's knowledge): `+` for `-`, `*` for `/`, `/` for
 * `//`, `^=` for `&=` (a `- 1` for a `+ 1` too). No smell singles one out: each is a low-suspicion guess the
 * tests must confirm.
 */

const binary: Record<string, readonly string[]> = {
  "+": ["-"],
  "-": ["+"],
  "*": ["/"],
  "/": ["//", "*"],
  "//": ["/"],
  "%": ["//"],
};
const augmented: Record<string, readonly string[]> = {
  "+=": ["-="],
  "-=": ["+="],
  "*=": ["/="],
  "/=": ["*="],
  "//=": ["/="],
  "^=": ["&=", "|="],
  "&=": ["^=", "|="],
  "|=": ["^=", "&="],
};

export function arithmeticEdits(facts: ProgramFacts): RepairEdit[] {
  const out: RepairEdit[] = [];
  facts.code.forEach((raw, line) => {
    const code = codeOf(raw).replace(/'[^']*'|"[^"]*"/g, (text) => "_".repeat(text.length));
    if (/^\s*(?:def|import|from)\b/.test(code)) return;
    const augment = /^\s*[\w.[\], ]+?\s*(\/\/=|[-+*/^&|]=)/.exec(code);
    if (augment) {
      const at = augment.index + augment[0].length - augment[1]!.length;
      for (const by of augmented[augment[1]!] ?? [])
        out.push(
          change("arithmetic", "assignment", line, spliced(raw, at, at + augment[1]!.length, by), 0.15),
        );
    }
    for (const match of code.matchAll(/(?<=[\w)\]}]\s*)(\/\/|[-+*/%])(?=\s*[\w([{])/g)) {
      const op = match[1]!;
      const rest = code.slice(match.index + op.length);
      if (code[match.index + op.length] === "=" || code[match.index - 1] === "*" || rest.startsWith("*"))
        continue;
      for (const by of binary[op] ?? [])
        out.push(
          change(
            "arithmetic",
            "operator",
            line,
            spliced(raw, match.index, match.index + op.length, by),
            0.15,
          ),
        );
    }
  });
  return out;
}
