/**
 * How the simulated repair agent reads a small Python program's text (SIMULATED): its code lines, its blocks, the
 * names it binds and reads, the arguments of a call. Regular expressions over lines, enough for the one-function
 * programs of a repair task; no Python parser.
 */

/** Keywords and builtins: never a variable of the program. */
export const reserved: ReadonlySet<string> = new Set([
  ..."and as assert break class continue def del elif else except False finally for from global if import in is".split(
    " ",
  ),
  ..."lambda None nonlocal not or pass raise return True try while with yield".split(" "),
  ..."len range min max abs list set dict tuple print enumerate sorted reversed sum zip float int str bool".split(
    " ",
  ),
  ..."any all map filter isinstance iter next self object type super round divmod".split(" "),
]);

/** The program's code: its lines up to the docstring that follows the function (upstream's layout). */
export function codeLines(source: string): string[] {
  const lines = source.split("\n");
  const end = lines.findIndex((line) => /^\s*(?:"""|''')/.test(line) && !/^\s{4,}/.test(line));
  return end < 0 ? lines : lines.slice(0, end);
}

/** The docstring after the code (empty when there is none). */
export function docstringOf(source: string): string {
  const lines = source.split("\n");
  return lines.slice(codeLines(source).length).join("\n");
}

/** A line without its comment (a `#` outside quotes) and trailing blanks. */
export function codeOf(line: string): string {
  let quote: string | null = null;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === "\\") index++;
      else if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "#") return line.slice(0, index).trimEnd();
  }
  return line.trimEnd();
}

export const indentOf = (line: string): number => /^\s*/.exec(line)![0].length;

export const isBlank = (line: string): boolean => codeOf(line).trim() === "";

/** Whether the line opens a block (ends with a colon). */
export const opensBlock = (line: string): boolean => /:\s*$/.test(codeOf(line));

/**
 * The index just past the block that `header` opens: the first later non-blank line indented no deeper than the
 * header (or the end of `lines`).
 */
export function blockEnd(lines: readonly string[], header: number): number {
  const indent = indentOf(lines[header]!);
  let end = header + 1;
  for (let index = header + 1; index < lines.length; index++) {
    if (isBlank(lines[index]!)) continue;
    if (indentOf(lines[index]!) <= indent) break;
    end = index + 1;
  }
  return end;
}

/** Lines whose statement continues an open bracket of an earlier line (the arguments of a call spread over lines). */
export function continuationLines(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  let depth = 0;
  lines.forEach((line, index) => {
    if (depth > 0) out.add(index);
    for (const char of codeOf(line).replace(/'[^']*'|"[^"]*"/g, "''")) {
      if ("([{".includes(char)) depth++;
      else if (")]}".includes(char)) depth = Math.max(0, depth - 1);
    }
  });
  return out;
}

/** Identifiers in code (not attribute names after a dot, not inside strings), with their offsets. */
export function identifiersIn(code: string): { name: string; at: number }[] {
  const masked = code.replace(/'[^']*'|"[^"]*"/g, (text) => " ".repeat(text.length));
  const out: { name: string; at: number }[] = [];
  for (const match of masked.matchAll(/\b[A-Za-z_]\w*\b/g)) {
    if (masked[match.index - 1] === "." || /^\d/.test(match[0])) continue;
    out.push({ name: match[0], at: match.index });
  }
  return out;
}

/** The names a line binds: assignment targets (plain, tuple, starred), loop targets, a def's parameters. */
export function boundNames(line: string): string[] {
  const code = codeOf(line);
  const names: string[] = [];
  const def = /^\s*def\s+\w+\((.*)\)\s*:/.exec(code);
  if (def)
    for (const part of splitTopLevel(def[1]!)) names.push(part.split("=")[0]!.trim().replace(/^\*+/, ""));
  const loop = /^\s*for\s+\(?([\w, *()]+?)\)?\s+in\b/.exec(code);
  if (loop) for (const part of loop[1]!.split(",")) names.push(part.replace(/[()*]/g, "").trim());
  const assign = /^\s*([\w, *]+?)\s*(?:[-+*/%|&^]|\/\/|\*\*)?=(?!=)/.exec(code);
  if (assign && !/^\s*(?:if|elif|while|return|for)\b/.test(code))
    for (const part of assign[1]!.split(",")) names.push(part.trim().replace(/^\*/, ""));
  // Chained assignment: `hare = tortoise = node`.
  const chained = /^\s*(\w+)\s*=\s*(\w+)\s*=(?!=)/.exec(code);
  if (chained) names.push(chained[2]!);
  return names.filter((name) => /^[A-Za-z_]\w*$/.test(name) && !reserved.has(name));
}

/** The whole-name target of an assignment (`x = …`, `x += …`), or null. */
export function assignmentTarget(line: string): string | null {
  const match = /^\s*([A-Za-z_]\w*)\s*(?:[-+*/%|&^]|\/\/|\*\*)?=(?!=)/.exec(codeOf(line));
  return match && !reserved.has(match[1]!) ? match[1]! : null;
}

/** Splits an argument list at its top-level commas. */
export function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else if (char === "," && depth === 0) {
      parts.push(text.slice(from, index));
      from = index + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** The top-level parts of the bracket that opens at `open` and where they lie (null when it does not close). */
export function argumentsAt(
  text: string,
  open: number,
): { start: number; end: number; parts: string[] } | null {
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

/** The text with `[start, end)` replaced. */
export const spliced = (text: string, start: number, end: number, by: string): string =>
  text.slice(0, start) + by + text.slice(end);

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const simpleOperand = "[\\w.]+(?:\\[[^\\]]*\\])?";

/**
 * Whether a line combines something with itself: the same operand on both sides of an operator (`t == t`,
 * `a - a`) or the same argument twice in one call or tuple (`f(t, t)`). Such a line is rarely what a program means.
 */
export function combinesWithItself(line: string): boolean {
  const code = codeOf(line);
  const pair = new RegExp(
    `(?<![\\w.\\]])(${simpleOperand})\\s*(?:==|!=|<=|>=|<|>|[-+*/%]|\\bor\\b|\\band\\b|\\bnot in\\b|\\bin\\b|\\bis\\b)\\s*(${simpleOperand})(?![\\w.\\[(])`,
    "g",
  );
  for (const match of code.matchAll(pair)) if (match[1] === match[2] && !/^\d+$/.test(match[1]!)) return true;
  for (let open = 0; open < code.length; open++) {
    if (code[open] !== "(" && code[open] !== "[") continue;
    const args = argumentsAt(code, open);
    const parts = args?.parts.map((part) => part.trim()).filter(Boolean) ?? [];
    if (parts.length > 1 && new Set(parts).size < parts.length) return true;
  }
  return false;
}
