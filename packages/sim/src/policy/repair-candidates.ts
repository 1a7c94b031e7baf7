/**
 * The simulated repair agent's idea of what a one-line defect may be (SIMULATED): edits of the program's own lines
 * by the KIND of defect, found from the code alone (the defect classes of the QuixBugs paper, as a repair tool's
 * author knows them): a comparison's strictness or direction, an off-by-one, swapped operands or arguments, a
 * wrong variable, a missing or wrong base case. It never sees a corrected program: it works on programs it has
 * never seen, and on some the fix is simply not among its edits.
 */

export type DefectKind = "comparison" | "off-by-one" | "swap" | "variable" | "base-case";

export interface RepairCandidate {
  kind: DefectKind;
  /** 0-based line of the edit. */
  line: number;
  /** How the edit was made, for the policy's own choices: `flip` / `strict` (comparison), `add` / `remove` (off-by-one). */
  style: string;
  before: string;
  after: string;
  /** The whole program with the edit. */
  file: string;
}

const keywords = new Set([
  "and",
  "as",
  "assert",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "False",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "None",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "True",
  "try",
  "while",
  "with",
  "yield",
  "len",
  "range",
  "min",
  "max",
  "abs",
  "list",
  "set",
  "dict",
  "print",
  "enumerate",
  "sorted",
  "sum",
  "zip",
  "float",
  "int",
  "str",
  "self",
]);

/** The program's code: its lines up to the docstring that follows it. */
export function codeLines(source: string): string[] {
  const lines = source.split("\n");
  const end = lines.findIndex((line) => /^\s*"""/.test(line) && !/^\s{4,}/.test(line));
  return end < 0 ? lines : lines.slice(0, end);
}

/** Names the function defines or receives: what a wrong variable may be swapped for. */
function localNames(lines: readonly string[]): string[] {
  const names = new Set<string>();
  for (const line of lines) {
    const def = /^\s*def\s+\w+\((.*)\)/.exec(line);
    if (def) for (const part of def[1]!.split(",")) names.add(part.split("=")[0]!.trim().replace(/^\*+/, ""));
    for (const match of line.matchAll(/^\s*([\w, *]+?)\s*(?:=|\+=|-=)(?!=)/g)) {
      for (const part of match[1]!.split(",")) names.add(part.trim().replace(/^\*/, ""));
    }
    for (const match of line.matchAll(/\bfor\s+([\w, ]+?)\s+in\b/g)) {
      for (const part of match[1]!.split(",")) names.add(part.trim());
    }
  }
  return [...names].filter((name) => /^[A-Za-z_]\w*$/.test(name) && !keywords.has(name));
}

/** Top-level comma positions inside the bracket that opens at `open`. */
function argumentsAt(text: string, open: number): { start: number; end: number; parts: string[] } | null {
  let depth = 0;
  const parts: string[] = [];
  let from = open + 1;
  for (let index = open; index < text.length; index++) {
    const char = text[index]!;
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) {
      depth--;
      if (depth === 0) {
        parts.push(text.slice(from, index));
        return { start: open + 1, end: index, parts };
      }
    } else if (char === "," && depth === 1) {
      parts.push(text.slice(from, index));
      from = index + 1;
    }
  }
  return null;
}

const strictSwap: Record<string, string> = { "<": "<=", "<=": "<", ">": ">=", ">=": ">" };
const flipSwap: Record<string, string> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };

function lineEdits(
  line: string,
  names: readonly string[],
): Omit<RepairCandidate, "line" | "file" | "before">[] {
  const out: Omit<RepairCandidate, "line" | "file" | "before">[] = [];
  const code = line.replace(/#.*$/, "");
  if (/^\s*(def|import|from)\b/.test(code) || code.trim() === "") return out;
  const add = (kind: DefectKind, style: string, after: string) => {
    if (after !== line && !out.some((edit) => edit.after === after)) out.push({ kind, style, after });
  };
  // Comparisons: strictness, direction, operands.
  for (const match of code.matchAll(/(?<![<>=!])(<=|>=|<|>)(?![<>=])/g)) {
    const at = match.index;
    const op = match[1]!;
    add("comparison", "strict", line.slice(0, at) + strictSwap[op] + line.slice(at + op.length));
    add("comparison", "flip", line.slice(0, at) + flipSwap[op] + line.slice(at + op.length));
    const left = /([\w.]+(?:\[[^\]]*\])?)\s*$/.exec(line.slice(0, at));
    const right = /^\s*([\w.]+(?:\[[^\]]*\])?)/.exec(line.slice(at + op.length));
    if (left && right) {
      const leftStart = at - left[0].length;
      const rightEnd = at + op.length + right[0].length;
      add(
        "swap",
        "operands",
        `${line.slice(0, leftStart)}${right[1]} ${op} ${left[1]}${line.slice(rightEnd)}`,
      );
    }
  }
  // Off-by-one: remove a +1/-1, or add one to an index or a bound.
  for (const match of code.matchAll(/\b1 \+ |\s[+-] 1\b/g)) {
    add("off-by-one", "remove", line.slice(0, match.index) + line.slice(match.index + match[0].length));
  }
  for (const match of code.matchAll(/\[([^\][]+)\]|range\(([^()]+)\)/g)) {
    const inner = match[1] ?? match[2]!;
    const innerStart = match.index + match[0].indexOf(inner);
    for (const name of inner.matchAll(/\b[A-Za-z_]\w*\b/g)) {
      if (keywords.has(name[0])) continue;
      const end = innerStart + name.index + name[0].length;
      if (/^\s*[+-] 1\b/.test(line.slice(end))) continue;
      add("off-by-one", "subtract", `${line.slice(0, end)} - 1${line.slice(end)}`);
      add("off-by-one", "add", `${line.slice(0, end)} + 1${line.slice(end)}`);
    }
  }
  // Swapped arguments of a call or of a subscript pair.
  for (let index = 0; index < code.length; index++) {
    if (code[index] !== "(" && code[index] !== "[") continue;
    const args = argumentsAt(line, index);
    if (!args || args.parts.length < 2) continue;
    for (let a = 0; a + 1 < args.parts.length; a++) {
      const parts = args.parts.map((part) => part.trim());
      [parts[a], parts[a + 1]] = [parts[a + 1]!, parts[a]!];
      add("swap", "arguments", `${line.slice(0, args.start)}${parts.join(", ")}${line.slice(args.end)}`);
    }
  }
  // Base cases: a None guard, an empty collection, a length bound, an endless loop, an empty result.
  const guard = /^(\s*)(if|elif)\s+([\w.]+)\.(\w+) is None:/.exec(line);
  if (guard)
    add(
      "base-case",
      "guard",
      line.replace(
        `${guard[3]}.${guard[4]} is None`,
        `${guard[3]} is None or ${guard[3]}.${guard[4]} is None`,
      ),
    );
  const condition = /^(\s*)(if|elif)\s+(.+):\s*$/.exec(line);
  if (condition)
    for (const name of names)
      add("base-case", "guard", `${condition[1]}${condition[2]} ${condition[3]} or not ${name}:`);
  add("base-case", "bound", line.replace(/len\((\w+)\) == 0/, "len($1) <= 1"));
  const endless = /^(\s*)while True:/.exec(line);
  if (endless) for (const name of names) add("base-case", "loop", `${endless[1]}while ${name}:`);
  add("base-case", "result", line.replace(/return \[\]\s*$/, "return [[]]"));
  // A wrong variable: one name on the line for another the function knows.
  for (const match of code.matchAll(/\b[A-Za-z_]\w*\b/g)) {
    const name = match[0];
    if (keywords.has(name) || !names.includes(name) || line[match.index - 1] === ".") continue;
    for (const other of names) {
      if (other === name) continue;
      add("variable", "name", line.slice(0, match.index) + other + line.slice(match.index + name.length));
    }
  }
  return out;
}

/** Every candidate edit of the program, line by line (the caller orders and filters them). */
export function repairCandidates(source: string): RepairCandidate[] {
  const lines = source.split("\n");
  const code = codeLines(source);
  const names = localNames(code);
  const out: RepairCandidate[] = [];
  code.forEach((line, index) => {
    for (const edit of lineEdits(line, names)) {
      const next = [...lines];
      next[index] = edit.after;
      out.push({ ...edit, line: index, before: line, file: next.join("\n") });
    }
  });
  return out;
}
